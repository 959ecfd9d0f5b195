// Sign-in accounts: a user's own e-mail settings.
import type { Database } from '../db/database';

/** Whether the user is mailed the report of each of its uploads. */
export async function userGetsUploadReports(db: Database, userId: string): Promise<boolean> {
  return (await db.one<{ email_upload_reports: boolean }>('SELECT email_upload_reports FROM users WHERE id = $1', [userId])).email_upload_reports;
}

export async function setUserGetsUploadReports(db: Database, userId: string, uploadReports: boolean): Promise<void> {
  await db.query('UPDATE users SET email_upload_reports = $2 WHERE id = $1', [userId, uploadReports]);
}
