// users: the people who sign in, with their role and mail settings.
import type { Database } from '../db/database';

/** Every scanning admin's address, in order. */
export async function scanningAdminEmails(db: Database): Promise<string[]> {
  const rows = await db.query<{ email: string }>(`SELECT email FROM users WHERE role = 'scanning_admin' ORDER BY email`);
  return rows.map((row) => row.email);
}

/** The user's address when they get upload reports; null when they turned them off or are gone. */
export async function uploadReportEmailOf(db: Database, userId: string): Promise<string | null> {
  const row = await db.maybeOne<{ email: string }>('SELECT email FROM users WHERE id = $1 AND email_upload_reports', [userId]);
  return row?.email ?? null;
}
