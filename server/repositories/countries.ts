// Countries (ISO 3166 reference data): searched by name or code, and one by its code.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import type { Page } from './sql/paging';
import { Where, containsPattern } from './sql/where';

/** A page of countries whose name or code contains `search` (when given), by name, with the total. */
export async function countryListPage(db: Database, search: string | undefined, page: Page): Promise<{ rows: Schemas['Country'][]; total: number }> {
  const where = new Where();
  if (search) where.add((p) => `(lower(display_name) LIKE ${p} OR lower(iso_code) LIKE ${p})`, containsPattern(search));
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM countries ${where.sql}`, where.params);
  const rows = await db.query<Schemas['Country']>(
    `SELECT iso_code, display_name FROM countries ${where.sql}
     ORDER BY display_name, iso_code LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

export function countryByIsoCode(db: Database, isoCode: string): Promise<Schemas['Country'] | null> {
  return db.maybeOne<Schemas['Country']>('SELECT iso_code, display_name FROM countries WHERE iso_code = $1', [isoCode]);
}

export async function countryExists(db: Database, isoCode: string): Promise<boolean> {
  return (await db.maybeOne('SELECT iso_code FROM countries WHERE iso_code = $1', [isoCode])) !== null;
}
