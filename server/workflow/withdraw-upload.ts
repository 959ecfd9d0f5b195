// Withdrawing a graded upload sent by mistake: its scans stop counting as grading. The feedback
// it kept goes with it (the pages it graded are ungraded again; an earlier scan it replaced was
// deleted then and does not come back), sheets and congregation states are recomputed, and the
// upload's report and images go. Refused (409, nothing changed) while the upload is being read,
// for an intro upload that wrote answer sheets, and once a file it graded was downloaded or
// archived: the one rule graded scans follow too (graded-upload.ts), as the return file that went
// back is made from these scans. A fully graded file not downloaded yet goes back to Grading.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { discardIfUnreferenced } from '../db/blob-references';
import { conflictError, forbidden, notFound } from '../http-error';
import { JOB } from './job-progress';
import { removeProgress } from '../repositories/job-progress';
import { refreshGrading, reopenGrading } from './grading-state';

export const UPLOAD_NOT_FOUND = 'Upload not found';

/** `congregationId`: the coordinator's congregation, whose own uploads alone it may withdraw (null: an admin). */
export async function withdrawUpload(db: Database, blobStore: BlobStore, uploadId: string, congregationId: string | null): Promise<void> {
  const keys = await db.transaction(async (tx) => {
    const upload = await tx.maybeOne<{ blob_key: string; process_status: string; is_intro: boolean; file_id: string | null; congregation_id: string }>(
      'SELECT blob_key, process_status, is_intro, file_id, congregation_id FROM graded_uploads WHERE id = $1 FOR UPDATE',
      [uploadId],
    );
    if (upload === null) throw notFound(UPLOAD_NOT_FOUND);
    if (congregationId !== null && upload.congregation_id !== congregationId) throw forbidden();
    if (upload.process_status === 'pending') throw conflictError('This upload is still being read; it can be withdrawn once it is done.');
    if (upload.is_intro && upload.file_id !== null) {
      throw conflictError('This intro upload wrote its answer sheets to a file, so it cannot be withdrawn.');
    }
    const files = await tx.query<{ id: string; name: string; file_status: string | null }>(
      `SELECT f.id, f.name, f.file_status FROM files f
       WHERE f.id IN (SELECT p.file_id FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE fb.upload_id = $1)
       ORDER BY f.name FOR UPDATE`,
      [uploadId],
    );
    for (const file of files) {
      if (file.file_status === 'archived') throw conflictError(`This upload cannot be withdrawn: the file "${file.name}" is archived.`);
      if (file.file_status === 'downloaded') {
        throw conflictError(`This upload cannot be withdrawn: the return file of "${file.name}" was downloaded.`);
      }
    }
    const sheets = await tx.query<{ id: string }>(
      `SELECT DISTINCT p.answer_sheet_id AS id FROM feedback fb JOIN pages p ON p.id = fb.page_id
       WHERE fb.upload_id = $1 AND p.answer_sheet_id IS NOT NULL`,
      [uploadId],
    );
    const images = await tx.query<{ key: string }>(
      `SELECT front_blob_key AS key FROM feedback WHERE upload_id = $1
       UNION SELECT back_blob_key FROM feedback WHERE upload_id = $1 AND back_blob_key IS NOT NULL
       UNION SELECT image_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND image_blob_key IS NOT NULL
       UNION SELECT photo_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND photo_blob_key IS NOT NULL
       UNION SELECT blob_key FROM upload_photos WHERE upload_id = $1`,
      [uploadId],
    );
    // Its feedback and report rows go with it (ON DELETE CASCADE).
    await tx.query('DELETE FROM graded_uploads WHERE id = $1', [uploadId]);
    await tx.query('DELETE FROM job_leases WHERE job = $1 AND target_id = $2', [JOB.processGradedUpload, uploadId]);
    await removeProgress(tx, JOB.processGradedUpload, uploadId);
    await refreshGrading(tx, sheets.map((sheet) => sheet.id));
    await reopenGrading(tx, files.map((file) => file.id));
    return [upload.blob_key, ...images.map((row) => row.key)];
  });
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
}
