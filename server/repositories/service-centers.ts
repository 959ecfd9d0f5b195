// Service centers: the list, one center, creation, what refers to a center (a delete is refused
// while anything does), and the one-at-a-time check that names within a center stay unique.
import type { QueryOf, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { orderClause, type Direction, type Page, type SortColumn } from './sql/paging';
import { Where, containsPattern } from './sql/where';

export type ServiceCenterOrder = NonNullable<QueryOf<'listServiceCenters'>['order_by']>;

const SERVICE_CENTER_SORT: Record<ServiceCenterOrder, SortColumn> = {
  name: { sql: 'lower(sc.name)', defaultDirection: 'asc' },
  created_at: { sql: 'sc.created_at', defaultDirection: 'desc' },
};

const SERVICE_CENTER_SELECT = `
  SELECT sc.id, sc.name, sc.location, sc.created_at, sc.country_iso, co.display_name AS country_name
  FROM service_centers sc
  LEFT JOIN countries co ON co.iso_code = sc.country_iso`;

export interface ServiceCenterRow {
  id: string;
  name: string;
  location: string;
  created_at: Date;
  country_iso: string | null;
  country_name: string | null;
}

/** A page of service centers whose name contains `name` (when given), with the total. */
export async function serviceCenterListPage(
  db: Database,
  filter: { name?: string; orderBy: ServiceCenterOrder; direction: Direction | undefined },
  page: Page,
): Promise<{ rows: ServiceCenterRow[]; total: number }> {
  const where = new Where();
  if (filter.name) where.add((p) => `lower(sc.name) LIKE ${p}`, containsPattern(filter.name));
  const order = orderClause(SERVICE_CENTER_SORT, filter.orderBy, filter.direction, 'sc.id');
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM service_centers sc ${where.sql}`, where.params);
  const rows = await db.query<ServiceCenterRow>(
    `${SERVICE_CENTER_SELECT} ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

export function serviceCenterRowById(db: Database, id: string): Promise<ServiceCenterRow | null> {
  return db.maybeOne<ServiceCenterRow>(`${SERVICE_CENTER_SELECT} WHERE sc.id = $1`, [id]);
}

export async function serviceCenterExists(db: Database, id: string): Promise<boolean> {
  return (await db.maybeOne('SELECT id FROM service_centers WHERE id = $1', [id])) !== null;
}

/** What a cover sheet prints of the center; null when there is no such center. */
export function serviceCenterForCoverSheet(db: Database, id: string): Promise<{ id: string; name: string; location: string } | null> {
  return db.maybeOne<{ id: string; name: string; location: string }>('SELECT id, name, location FROM service_centers WHERE id = $1', [id]);
}

/** Records a new center; returns its id. */
export async function insertServiceCenter(db: Database, center: { name: string; country: Schemas['ServiceCenterCreate']['country']; location: string }): Promise<string> {
  const created = await db.one<{ id: string }>('INSERT INTO service_centers (name, country_iso, location) VALUES ($1, $2, $3) RETURNING id', [
    center.name,
    center.country,
    center.location,
  ]);
  return created.id;
}

/** Locks the center's row for its delete; false when there is none. */
export async function lockServiceCenter(tx: Database, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM service_centers WHERE id = $1 FOR UPDATE', [id])) !== null;
}

/** What refers to a service center, each counted with $1 its id (routes/shared/in-use.ts). */
export const SERVICE_CENTER_USES = [
  { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE service_center_id = $1' },
  { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE service_center_id = $1' },
  { name: ['recruiting point', 'recruiting points'], countSql: 'SELECT count(*) FROM recruiting_points WHERE service_center_id = $1' },
  { name: ['recruiter', 'recruiters'], countSql: 'SELECT count(*) FROM recruiters WHERE service_center_id = $1' },
  { name: ['contact person', 'contact persons'], countSql: 'SELECT count(*) FROM contact_persons WHERE service_center_id = $1' },
] as const;

export async function deleteServiceCenter(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM service_centers WHERE id = $1', [id]);
}

/** The tables of the people and places a service center names, each name once per center. */
export type ServiceCenterNamedTable = 'recruiting_points' | 'recruiters' | 'contact_persons';

/** Names within the center change one at a time (until the transaction ends): two equal names added at once cannot both pass. */
export async function lockServiceCenterNames(tx: Database, serviceCenterId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('service-center-names:' || $1))`, [serviceCenterId]);
}

/** Whether another row of `table` in the center (not `exceptId`) has `name`, case and spaces aside. */
export async function serviceCenterNameTaken(
  tx: Database,
  table: ServiceCenterNamedTable,
  serviceCenterId: string,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  const taken = await tx.maybeOne(
    `SELECT 1 FROM ${table} WHERE service_center_id = $1 AND lower(btrim(name)) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [serviceCenterId, name, exceptId],
  );
  return taken !== null;
}

/** The country of a service center; null when there is no such center. */
export async function countryOfSplitServiceCenter(db: Database, serviceCenterId: string): Promise<{ country_iso: string | null } | null> {
  return db.maybeOne<{ country_iso: string | null }>('SELECT country_iso FROM service_centers WHERE id = $1', [serviceCenterId]);
}
