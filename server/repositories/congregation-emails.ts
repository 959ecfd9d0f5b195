// congregation_emails: the addresses a congregation's mail goes to.
import type { Database } from '../db/database';

/** The congregation's addresses, in order. */
export async function emailsOfCongregation(db: Database, congregationId: string): Promise<string[]> {
  const rows = await db.query<{ email: string }>('SELECT email FROM congregation_emails WHERE congregation_id = $1 ORDER BY email', [congregationId]);
  return rows.map((row) => row.email);
}
