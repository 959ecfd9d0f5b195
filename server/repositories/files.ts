// The files table: a service center's scanned file, as the split and the upload withdrawal read
// and write it.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

/** A file waiting for its split, locked for it; null when it is no longer pending. */
export async function lockPendingFileForSplit(
  db: Database,
  fileId: string,
): Promise<{ answer_sheet_page_length: Schemas['AnswerSheetPageLength']; service_center_id: string | null; page_count: number | null } | null> {
  return db.maybeOne(
    `SELECT answer_sheet_page_length, service_center_id, page_count FROM files
     WHERE id = $1 AND process_status = 'pending' FOR UPDATE`,
    [fileId],
  );
}

/** The split is written: the file is processed, with its cover page and the cover's service center. */
export async function markFileSplit(db: Database, fileId: string, coverPageId: string | null, coverServiceCenterId: string | null): Promise<void> {
  await db.query(
    `UPDATE files SET process_status = 'success', failure_reason = NULL,
            cover_page_id = $2, service_center_id = COALESCE(service_center_id, $3)
     WHERE id = $1`,
    [fileId, coverPageId, coverServiceCenterId],
  );
}

/** The files an upload's feedback graded, locked, by name. */
export async function lockFilesGradedByUpload(db: Database, uploadId: string): Promise<{ id: string; name: string; file_status: Schemas['FileStatus'] | null }[]> {
  return db.query<{ id: string; name: string; file_status: Schemas['FileStatus'] | null }>(
    `SELECT f.id, f.name, f.file_status FROM files f
     WHERE f.id IN (SELECT p.file_id FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE fb.upload_id = $1)
     ORDER BY f.name FOR UPDATE`,
    [uploadId],
  );
}
