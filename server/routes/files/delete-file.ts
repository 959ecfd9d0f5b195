// Deleting an uploaded file: its sheets, pages, the packet codes printed for its pages and its
// progress go with it (one transaction), then
// the blobs no other row uses (the original, page images, thumbnails). A job still processing
// the file notices the file is gone and stops.
import type { BlobStore } from '../../blob-store';
import type { Database } from '../../db/database';
import { JOB } from '../../workflow/job-progress';
import { removeProgress } from '../../repositories/job-progress';
import { discardIfUnreferenced } from '../../db/blob-references';

/** Returns false when the file did not exist. */
export async function deleteFile(db: Database, blobStore: BlobStore, fileId: string): Promise<boolean> {
  const keys = await db.transaction(async (tx) => {
    const file = await tx.maybeOne<{ blob_key: string }>('SELECT blob_key FROM files WHERE id = $1 FOR UPDATE', [fileId]);
    if (file === null) return null;
    const pageKeys = await tx.query<{ key: string }>(
      `SELECT DISTINCT k AS key FROM pages p,
         LATERAL (VALUES (p.image_blob_key), (p.thumbnail_500_blob_key), (p.thumbnail_1000_blob_key), (p.photo_blob_key)) AS v(k)
       WHERE p.file_id = $1 AND k IS NOT NULL
       UNION SELECT blob_key FROM upload_photos WHERE file_id = $1`,
      [fileId],
    );
    // files.cover_page_id points at a page of the file: clear it before the pages go.
    await tx.query('UPDATE files SET cover_page_id = NULL WHERE id = $1', [fileId]);
    await tx.query(`DELETE FROM printed_codes WHERE prefix = 'p' AND target_id IN (SELECT id FROM pages WHERE file_id = $1)`, [fileId]);
    await tx.query('DELETE FROM pages WHERE file_id = $1', [fileId]);
    await tx.query('DELETE FROM answer_sheets WHERE file_id = $1', [fileId]);
    await tx.query('DELETE FROM files WHERE id = $1', [fileId]);
    await removeProgress(tx, JOB.processServiceCenterUpload, fileId);
    return [file.blob_key, ...pageKeys.map((row) => row.key)];
  });
  if (keys === null) return false;
  // Its jobs' leases go too (after the commit: a job finishing takes the lease row first).
  await db.query('DELETE FROM job_leases WHERE target_id = $1', [fileId]);
  for (const key of new Set(keys)) await discardIfUnreferenced(db, blobStore, key);
  return true;
}
