// Congregations: the admin list, creation, one congregation, its dashboard counts and what
// refers to it (a delete is refused while anything does).
import type { QueryOf } from '../contract/types';
import type { Database } from '../db/database';
import { sentToSql } from './files';
import { orderClause, type Direction, type Page, type SortColumn } from './sql/paging';
import { Where, containsPattern } from './sql/where';

export interface CongregationRow {
  id: string;
  wbs_code: string;
  display_name: string;
  created_at: Date;
}

export type CongregationOrder = NonNullable<QueryOf<'listCongregations'>['order_by']>;

const CONGREGATION_SORT: Record<CongregationOrder, SortColumn> = {
  wbs_code: { sql: 'lower(wbs_code)', defaultDirection: 'asc' },
  display_name: { sql: 'lower(display_name)', defaultDirection: 'asc' },
  created_at: { sql: 'created_at', defaultDirection: 'desc' },
};

/** A page of congregations whose WBS code contains `wbsCode` (when given), with the total. */
export async function congregationListPage(
  db: Database,
  filter: { wbsCode?: string; orderBy: CongregationOrder; direction: Direction | undefined },
  page: Page,
): Promise<{ rows: CongregationRow[]; total: number }> {
  const where = new Where();
  if (filter.wbsCode) where.add((p) => `lower(wbs_code) LIKE ${p}`, containsPattern(filter.wbsCode));
  const order = orderClause(CONGREGATION_SORT, filter.orderBy, filter.direction, 'id');
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM congregations ${where.sql}`, where.params);
  const rows = await db.query<CongregationRow>(
    `SELECT id, wbs_code, display_name, created_at FROM congregations ${where.sql}
     ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

/** The new congregation, or null when its WBS code is taken (ON CONFLICT: two at once cannot both pass). */
export function insertCongregation(db: Database, wbsCode: string, displayName: string): Promise<CongregationRow | null> {
  return db.maybeOne<CongregationRow>(
    `INSERT INTO congregations (wbs_code, display_name) VALUES ($1, $2)
     ON CONFLICT (wbs_code) DO NOTHING
     RETURNING id, wbs_code, display_name, created_at`,
    [wbsCode, displayName],
  );
}

export function congregationById(db: Database, id: string): Promise<CongregationRow | null> {
  return db.maybeOne<CongregationRow>('SELECT id, wbs_code, display_name, created_at FROM congregations WHERE id = $1', [id]);
}

export async function congregationExists(db: Database, id: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM congregations WHERE id = $1', [id])) !== null;
}

/** Locks the congregation's row for a delete or a change of its addresses; false when there is none. */
export async function lockCongregation(tx: Database, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM congregations WHERE id = $1 FOR UPDATE', [id])) !== null;
}

/** What refers to a congregation, each counted with $1 its id (routes/shared/in-use.ts). */
export const CONGREGATION_USES = [
  { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE congregation_id = $1' },
  { name: ['study helper', 'study helpers'], countSql: 'SELECT count(*) FROM study_helpers WHERE congregation_id = $1' },
  { name: ['answer sheet assigned to it', 'answer sheets assigned to it'], countSql: 'SELECT count(*) FROM answer_sheets WHERE assigned_group = $1' },
  {
    name: ['sent file', 'sent files'],
    countSql: `SELECT count(*) FROM (SELECT file_id FROM file_congregations WHERE congregation_id = $1
               UNION SELECT file_id FROM packets WHERE congregation_id = $1) f`,
  },
  { name: ['graded upload', 'graded uploads'], countSql: 'SELECT count(*) FROM graded_uploads WHERE congregation_id = $1' },
  { name: ['user', 'users'], countSql: 'SELECT count(*) FROM users WHERE congregation_id = $1' },
] as const;

/** An admin acting for it (View As) simply stops acting for it (ON DELETE SET NULL). */
export async function deleteCongregation(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM congregations WHERE id = $1', [id]);
}

/**
 * Ready to print: sent to this congregation and not yet printed there. All files: its files
 * list, the files with its sheets that were sent to it (not those in Review).
 */
export async function congregationDashboardCounts(db: Database, id: string): Promise<{ ready_to_print_count: number; all_files_count: number }> {
  const counts = await db.one<{ ready_to_print_count: number; all_files_count: number }>(
    `SELECT
       (SELECT count(*) FROM file_congregations fc JOIN files f ON f.id = fc.file_id
        WHERE fc.congregation_id = $1 AND fc.status = 'unprinted' AND f.sent_at IS NOT NULL) AS ready_to_print_count,
       (SELECT count(*) FROM file_groups fg WHERE fg.congregation_id = $1 AND ${sentToSql('fg.file_id', '$1')}) AS all_files_count`,
    [id],
  );
  return { ready_to_print_count: Number(counts.ready_to_print_count), all_files_count: Number(counts.all_files_count) };
}
