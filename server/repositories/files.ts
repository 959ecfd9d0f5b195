// Files (the service centers' scans): who may see one, whether it is sent, and locks that order
// a change of its sheets' congregations against Send.
import type { Database } from '../db/database';
import { sentOrSendingSql } from './sql/file-steps';

/** Visible to a coordinator of `congregationId` (null: an admin): the file was sent to it. */
export function fileVisibleSql(file: string, scopeParam: string): string {
  return `(${scopeParam}::uuid IS NULL OR ${sentToSql(`${file}.id`, scopeParam)})`;
}

/**
 * The file (its id in `fileId`) was sent to the congregation: Send made its row of
 * file_congregations, Take Back removes it. A file still in Review, or taken back, is the
 * admins' work: its congregations see nothing of it.
 */
export function sentToSql(fileId: string, congregationParam: string): string {
  return `EXISTS (SELECT 1 FROM file_congregations sent WHERE sent.file_id = ${fileId} AND sent.congregation_id = ${congregationParam}::uuid)`;
}

/** Whether a coordinator of `scope` (null: an admin) sees the file; null when there is no such file. */
export async function fileVisibleInScope(db: Database, fileId: string, scope: string | null): Promise<boolean | null> {
  const file = await db.maybeOne<{ visible: boolean }>(`SELECT ${fileVisibleSql('f', '$2')} AS visible FROM files f WHERE f.id = $1`, [fileId, scope]);
  return file?.visible ?? null;
}

/** Whether the file was sent to the congregation (Send made its row of file_congregations). */
export async function fileSentToCongregation(db: Database, fileId: string, congregationId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM files f WHERE f.id = $1 AND ${sentToSql('f.id', '$2')}`, [fileId, congregationId])) !== null;
}

/**
 * Locks the file's row (Send locks it too before it reads the sheets) and says whether it is
 * sent or being sent; null when there is no such file.
 */
export async function lockFileForSheetAssignment(tx: Database, fileId: string): Promise<boolean | null> {
  const file = await tx.maybeOne<{ sent: boolean }>(`SELECT ${sentOrSendingSql('f')} AS sent FROM files f WHERE f.id = $1 FOR UPDATE`, [fileId]);
  return file?.sent ?? null;
}

/**
 * The files of the student's sheets not sent yet, their rows locked shared (in id order), so a
 * Send under way is waited for and its file left alone.
 */
export async function lockUnsentFilesOfStudent(tx: Database, studentId: string): Promise<string[]> {
  const files = await tx.query<{ id: string }>(
    `SELECT f.id FROM files f
     WHERE f.id IN (SELECT a.file_id FROM answer_sheets a WHERE a.student_id = $1) AND NOT ${sentOrSendingSql('f')}
     ORDER BY f.id FOR SHARE`,
    [studentId],
  );
  return files.map((file) => file.id);
}
