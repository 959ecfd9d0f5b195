// A congregation's e-mail addresses (its Emails tile): told when its packet is ready.
import type { Database } from '../db/database';

export interface CongregationEmailRow {
  id: string;
  email: string;
  created_at: Date;
}

export function emailsOfCongregation(db: Database, congregationId: string): Promise<CongregationEmailRow[]> {
  return db.query<CongregationEmailRow>(
    'SELECT id, email, created_at FROM congregation_emails WHERE congregation_id = $1 ORDER BY email',
    [congregationId],
  );
}

export async function countCongregationEmails(db: Database, congregationId: string): Promise<number> {
  const { count } = await db.one<{ count: number }>('SELECT count(*)::int AS count FROM congregation_emails WHERE congregation_id = $1', [congregationId]);
  return count;
}

/** The new address, or null when the congregation has it already. */
export function insertCongregationEmail(db: Database, congregationId: string, email: string): Promise<{ id: string; email: string } | null> {
  return db.maybeOne<{ id: string; email: string }>(
    `INSERT INTO congregation_emails (congregation_id, email) VALUES ($1, $2)
     ON CONFLICT (congregation_id, email) DO NOTHING RETURNING id, email`,
    [congregationId, email],
  );
}

/** Whether the congregation had the address. */
export async function deleteCongregationEmail(db: Database, congregationId: string, emailId: string): Promise<boolean> {
  return (await db.execute('DELETE FROM congregation_emails WHERE id = $1 AND congregation_id = $2', [emailId, congregationId])) > 0;
}
