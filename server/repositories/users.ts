// Sign-in accounts: a user's own e-mail settings.
import type { Database } from '../db/database';

/** Whether the user is mailed the report of each of its uploads. */
export async function userGetsUploadReports(db: Database, userId: string): Promise<boolean> {
  return (await db.one<{ email_upload_reports: boolean }>('SELECT email_upload_reports FROM users WHERE id = $1', [userId])).email_upload_reports;
}

export async function setUserGetsUploadReports(db: Database, userId: string, uploadReports: boolean): Promise<void> {
  await db.query('UPDATE users SET email_upload_reports = $2 WHERE id = $1', [userId, uploadReports]);
}

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
