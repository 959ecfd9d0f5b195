// Record uses: how many rows refer to a record (a service center, congregation, study helper...),
// counted before a delete so the refusal can name them. The counting statements are the
// referring tables' own; this runs one.
import type { Database } from '../db/database';

/** The count `countSql` makes of the record's references ($1 is the record's id). */
export async function countRecordUses(db: Database, id: string, countSql: string): Promise<number> {
  const { n } = await db.one<{ n: number }>(`SELECT (${countSql})::int AS n`, [id]);
  return n;
}
