// One page of a list in two statements: first the page's ids (the filters, the sort, LIMIT and
// OFFSET), then those rows with everything the list shows of them, by id.
//
// Why two: PostgreSQL plans a prepared statement anew for each call's values while its generic
// plan looks costlier, and a list page's LIMIT/OFFSET always does. As one statement, the whole
// select list (names, counts, the latest sheet...) was planned again on every call: 0.7 ms of
// the 2 ms a students page cost on PostgreSQL. Split, only the small ids statement is planned
// per call; the rows-by-id one keeps a generic plan. Measured with `npm run bench -- lists`: a
// students page went from ~740-970 to ~1290-1440 pages/s at 20 clients.
import type { Database } from '../../db/database';

export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * The rows of `ids` (a statement selecting `id`), in its order. `rowsSql` selects rows with an
 * `id` where `id = ANY($N::uuid[])`, N being one more than the number of `rowsParams`: the ids
 * come last. It is a constant of its caller's, not built per call: the database layer finds a
 * statement's prepared name by its text. A row deleted between the two statements is left out
 * rather than sent half-read.
 */
export async function rowsOfPage<R extends { id: string }>(
  db: Database,
  ids: Statement,
  rowsSql: string,
  rowsParams: readonly unknown[] = [],
): Promise<R[]> {
  const pageIds = (await db.query<{ id: string }>(ids.sql, ids.params)).map((row) => row.id);
  if (pageIds.length === 0) return [];
  const rows = await db.query<R>(rowsSql, [...rowsParams, pageIds]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return pageIds.flatMap((id) => byId.get(id) ?? []);
}
