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
import { lockFilesGradedByUpload } from '../repositories/files';
import { dropLeaseOfTakenBackJob } from '../repositories/job-leases';
import { blobsOfGradedUpload, deleteWithdrawnUpload, lockGradedUploadForWithdraw, sheetsGradedByUpload } from '../repositories/graded-uploads';
import { JOB } from './job-progress';
import { removeProgress } from '../repositories/job-progress';
import { refreshGrading, reopenGrading } from './grading-state';

export const UPLOAD_NOT_FOUND = 'Upload not found';

/** `congregationId`: the coordinator's congregation, whose own uploads alone it may withdraw (null: an admin). */
export async function withdrawUpload(db: Database, blobStore: BlobStore, uploadId: string, congregationId: string | null): Promise<void> {
  const keys = await db.transaction(async (tx) => {
    const upload = await lockGradedUploadForWithdraw(tx, uploadId);
    if (upload === null) throw notFound(UPLOAD_NOT_FOUND);
    if (congregationId !== null && upload.congregation_id !== congregationId) throw forbidden();
    if (upload.process_status === 'pending') throw conflictError('This upload is still being read; it can be withdrawn once it is done.');
    if (upload.is_intro && upload.file_id !== null) {
      throw conflictError('This intro upload wrote its answer sheets to a file, so it cannot be withdrawn.');
    }
    const files = await lockFilesGradedByUpload(tx, uploadId);
    for (const file of files) {
      if (file.file_status === 'archived') throw conflictError(`This upload cannot be withdrawn: the file "${file.name}" is archived.`);
      if (file.file_status === 'downloaded') {
        throw conflictError(`This upload cannot be withdrawn: the return file of "${file.name}" was downloaded.`);
      }
    }
    const sheets = await sheetsGradedByUpload(tx, uploadId);
    const images = await blobsOfGradedUpload(tx, uploadId);
    // Its feedback and report rows go with it.
    await deleteWithdrawnUpload(tx, uploadId);
    await dropLeaseOfTakenBackJob(tx, JOB.processGradedUpload, uploadId);
    await removeProgress(tx, JOB.processGradedUpload, uploadId);
    await refreshGrading(tx, sheets);
    await reopenGrading(tx, files.map((file) => file.id));
    return [upload.blob_key, ...images];
  });
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
}
