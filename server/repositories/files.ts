// files: a service center's uploaded scan and everything the workflow records on it (its
// processing, its step's dates, its return file).
import type { Database } from '../db/database';
import { keptSheetSql } from './sql/file-steps';

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
