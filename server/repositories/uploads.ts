// The graded_uploads table: graded scans a congregation sent back, as their processing finishes
// and as a coordinator withdraws one.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

/** The upload is read: every page has its outcome. */
export async function markGradedUploadDone(db: Database, uploadId: string, pageCount: number): Promise<void> {
  await db.query(`UPDATE graded_uploads SET process_status = 'success', page_count = $2, failure_reason = NULL WHERE id = $1`, [uploadId, pageCount]);
}

export interface WithdrawnUploadRow {
  blob_key: string;
  process_status: Schemas['ProcessStatus'];
  is_intro: boolean;
  file_id: string | null;
  congregation_id: string;
}

/** The upload locked to be withdrawn; null when there is no such upload. */
export async function lockGradedUploadForWithdraw(db: Database, uploadId: string): Promise<WithdrawnUploadRow | null> {
  return db.maybeOne<WithdrawnUploadRow>(
    'SELECT blob_key, process_status, is_intro, file_id, congregation_id FROM graded_uploads WHERE id = $1 FOR UPDATE',
    [uploadId],
  );
}

/** The sheets the upload's feedback graded. */
export async function sheetsGradedByUpload(db: Database, uploadId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT DISTINCT p.answer_sheet_id AS id FROM feedback fb JOIN pages p ON p.id = fb.page_id
     WHERE fb.upload_id = $1 AND p.answer_sheet_id IS NOT NULL`,
    [uploadId],
  );
  return rows.map((row) => row.id);
}

/** Every blob the upload brought: its feedback scans, its staged pages' images and its photos. */
export async function blobsOfGradedUpload(db: Database, uploadId: string): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `SELECT front_blob_key AS key FROM feedback WHERE upload_id = $1
     UNION SELECT back_blob_key FROM feedback WHERE upload_id = $1 AND back_blob_key IS NOT NULL
     UNION SELECT image_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND image_blob_key IS NOT NULL
     UNION SELECT photo_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND photo_blob_key IS NOT NULL
     UNION SELECT blob_key FROM upload_photos WHERE upload_id = $1`,
    [uploadId],
  );
  return rows.map((row) => row.key);
}

/** Removes the upload; its feedback and report rows go with it (ON DELETE CASCADE). */
export async function deleteWithdrawnUpload(db: Database, uploadId: string): Promise<void> {
  await db.query('DELETE FROM graded_uploads WHERE id = $1', [uploadId]);
}
