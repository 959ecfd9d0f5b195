// graded_uploads: a congregation's scan of graded packet pages (or a study helper's intro file),
// read by its job (server/jobs/graded-upload.ts).
import type { Database } from '../db/database';
import type { NotReadReport } from './files';

/** The upload as its job reads it. */
export interface UploadToRead {
  id: string;
  name: string;
  congregation_id: string;
  study_helper_id: string | null;
  is_intro: boolean;
  blob_key: string;
  sha256: string;
  size_bytes: number | null;
  uploaded_by: string | null;
}

/** The upload while it waits to be read; null once done, failed or deleted. */
export async function uploadWaitingToBeRead(db: Database, uploadId: string): Promise<UploadToRead | null> {
  return db.maybeOne<UploadToRead>(
    `SELECT id, name, congregation_id, study_helper_id, is_intro, blob_key, sha256, size_bytes, uploaded_by
     FROM graded_uploads WHERE id = $1 AND process_status = 'pending'`,
    [uploadId],
  );
}

/** Locks the upload for its last writes (in `tx`); false when it is not pending any more. */
export async function lockPendingUpload(tx: Database, uploadId: string): Promise<boolean> {
  return (await tx.maybeOne(`SELECT 1 FROM graded_uploads WHERE id = $1 AND process_status = 'pending' FOR UPDATE`, [uploadId])) !== null;
}

/** Marks a pending upload failed with its reason; false when it was not pending any more. */
export async function failPendingUpload(db: Database, uploadId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE graded_uploads SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`,
    [uploadId, reason],
  );
  return changed > 0;
}

/** An intro upload's pages became this file. */
export async function linkUploadToFile(db: Database, uploadId: string, fileId: string): Promise<void> {
  await db.query('UPDATE graded_uploads SET file_id = $2 WHERE id = $1', [uploadId, fileId]);
}

export interface UploadReportCounts {
  name: string;
  uploaded_by: string | null;
  matched: number;
  not_matched: number;
  blank_dropped: number;
}

/** The upload's report counts; `summaryJoin` is the trusted LATERAL join of its summary columns for alias `u`. */
export async function uploadReportCounts(db: Database, uploadId: string, summaryJoin: string): Promise<UploadReportCounts | null> {
  return db.maybeOne<UploadReportCounts>(
    `SELECT u.name, u.uploaded_by, summary.matched, summary.not_matched, summary.blank_dropped
     FROM graded_uploads u ${summaryJoin} WHERE u.id = $1`,
    [uploadId],
  );
}

export async function uploadNotReadReport(db: Database, uploadId: string): Promise<NotReadReport | null> {
  return db.maybeOne<NotReadReport>('SELECT name, uploaded_by, failure_reason FROM graded_uploads WHERE id = $1', [uploadId]);
}
