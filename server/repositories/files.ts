// files: a service center's uploaded scan and everything the workflow records on it (its
// processing, its step's dates, its return file).
import type { Database } from '../db/database';
import type { Schemas } from '../contract/types';
import { fileStepSql, keptSheetSql } from './sql/file-steps';

/** Whether a file still waits to be read (a job left over from before the server started). */
export async function anyFileWaitingToBeRead(db: Database): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM files WHERE process_status = 'pending' LIMIT 1`)) !== null;
}

export interface FileToRead {
  blob_key: string;
}

/** The file while it waits to be read; null once done, failed or deleted. */
export async function fileWaitingToBeRead(db: Database, fileId: string): Promise<FileToRead | null> {
  return db.maybeOne<FileToRead>(`SELECT blob_key FROM files WHERE id = $1 AND process_status = 'pending'`, [fileId]);
}

/** Marks a pending file failed with its reason; false when it was not pending any more. */
export async function failPendingFile(db: Database, fileId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(`UPDATE files SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`, [fileId, reason]);
  return changed > 0;
}

/** Sets grading_complete and requests the return file when a sent file's kept sheets are all graded; true when it did. */
export async function markFileGradingComplete(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files f SET grading_complete = true, return_requested_at = now(), return_prepped = false
     WHERE f.id = $1 AND f.sent_at IS NOT NULL AND NOT f.grading_complete
       AND EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND ${keptSheetSql('a')})
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND NOT a.graded AND ${keptSheetSql('a')})
     RETURNING f.id`,
    [fileId],
  );
  return row !== null;
}

/** Requests the return file of a completed file again, unless it was downloaded; true when it did. */
export async function requestReturnFileAgain(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files SET return_requested_at = now(), return_prepped = false
     WHERE id = $1 AND grading_complete AND file_status = 'grading' RETURNING id`,
    [fileId],
  );
  return row !== null;
}

/**
 * Files of these that were complete but have an ungraded kept sheet again go back to Grading,
 * their return file dropped; downloaded and archived files never. Returns the files reopened.
 */
export async function reopenGradingOfFiles(db: Database, fileIds: readonly string[]): Promise<string[]> {
  const reopened = await db.query<{ id: string }>(
    `UPDATE files f SET grading_complete = false, return_prepped = false, return_requested_at = NULL
     WHERE f.id = ANY($1::uuid[]) AND f.grading_complete AND f.file_status IS DISTINCT FROM 'downloaded'
       AND f.file_status IS DISTINCT FROM 'archived'
       AND EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND NOT a.graded AND ${keptSheetSql('a')})
     RETURNING f.id`,
    [fileIds],
  );
  return reopened.map((row) => row.id);
}

/** What a file's read report tells: its step and its counts of pages and answer sheets. */
export interface FileReadReport {
  name: string;
  uploaded_by: string | null;
  step: Schemas['WorkflowStep'];
  pages: number;
  sheets: number;
}

export async function fileReadReport(db: Database, fileId: string): Promise<FileReadReport | null> {
  return db.maybeOne<FileReadReport>(
    `SELECT f.name, f.uploaded_by, ${fileStepSql('f')} AS step,
            (SELECT count(*)::int FROM pages p WHERE p.file_id = f.id) AS pages,
            (SELECT count(*)::int FROM answer_sheets a WHERE a.file_id = f.id) AS sheets
     FROM files f WHERE f.id = $1`,
    [fileId],
  );
}

/** What "not read" tells of a file or an upload: its name, uploader and why it failed. */
export interface NotReadReport {
  name: string;
  uploaded_by: string | null;
  failure_reason: string | null;
}

export async function fileNotReadReport(db: Database, fileId: string): Promise<NotReadReport | null> {
  return db.maybeOne<NotReadReport>('SELECT name, uploaded_by, failure_reason FROM files WHERE id = $1', [fileId]);
}

/** The file's name and its return file's blob (null until made). */
export async function returnFileOfFile(db: Database, fileId: string): Promise<{ name: string; return_blob_key: string | null } | null> {
  return db.maybeOne<{ name: string; return_blob_key: string | null }>('SELECT name, return_blob_key FROM files WHERE id = $1', [fileId]);
}

/** The values of a new file made from an intro upload (already read, so `success`). */
export interface IntroFileValues {
  name: string;
  sha256: string;
  blob_key: string;
  size_bytes: number;
  page_count: number;
  answer_sheet_page_length: number;
  uploaded_by: string | null;
}

/** Inserts the file of an intro upload's sheets; its id. */
export async function insertIntroFile(db: Database, file: IntroFileValues): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, answer_sheet_page_length, process_status, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, 'success', $7) RETURNING id`,
    [file.name, file.sha256, file.blob_key, file.size_bytes, file.page_count, file.answer_sheet_page_length, file.uploaded_by],
  );
  return row.id;
}
