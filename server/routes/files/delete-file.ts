// Deleting an uploaded file: its sheets, pages, the packet codes printed for its pages and its
// progress go with it (one transaction), then
// the blobs no other row uses (the original, page images, thumbnails). A job still processing
// the file notices the file is gone and stops.
import type { BlobStore } from '../../blob-store';
import type { Database } from '../../db/database';
import { JOB } from '../../workflow/job-progress';
import { removeProgress } from '../../repositories/job-progress';
import { discardIfUnreferenced } from '../../db/blob-references';
import { blobKeysOfFilePages, deleteFileRows, deleteJobLeasesOfFile, lockFileForDeletion } from '../../repositories/file-deletion';

/** Returns false when the file did not exist. */
export async function deleteFile(db: Database, blobStore: BlobStore, fileId: string): Promise<boolean> {
  const keys = await db.transaction(async (tx) => {
    const file = await lockFileForDeletion(tx, fileId);
    if (file === null) return null;
    const pageKeys = await blobKeysOfFilePages(tx, fileId);
    await deleteFileRows(tx, fileId);
    await removeProgress(tx, JOB.processServiceCenterUpload, fileId);
    return [file.blob_key, ...pageKeys];
  });
  if (keys === null) return false;
  // Its jobs' leases go too (after the commit: a job finishing takes the lease row first).
  await deleteJobLeasesOfFile(db, fileId);
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
  return true;
}
