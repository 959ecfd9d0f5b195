// Deleting an uploaded file's rows: its sheets, pages and the packet codes printed for its pages
// go with it, and the blobs they held are named so the caller can drop those no other row uses.
import type { Database } from '../db/database';

/** The blob of the file's original, its row locked until the transaction ends; null when no such file. */
export async function lockFileForDeletion(tx: Database, fileId: string): Promise<{ blob_key: string } | null> {
  return tx.maybeOne<{ blob_key: string }>('SELECT blob_key FROM files WHERE id = $1 FOR UPDATE', [fileId]);
}

/** Every blob the file's pages and photos hold (page images, thumbnails, photos). */
export async function blobKeysOfFilePages(tx: Database, fileId: string): Promise<string[]> {
  const rows = await tx.query<{ key: string }>(
    `SELECT DISTINCT k AS key FROM pages p,
       LATERAL (VALUES (p.image_blob_key), (p.thumbnail_500_blob_key), (p.thumbnail_1000_blob_key), (p.photo_blob_key)) AS v(k)
     WHERE p.file_id = $1 AND k IS NOT NULL
     UNION SELECT blob_key FROM upload_photos WHERE file_id = $1`,
    [fileId],
  );
  return rows.map((row) => row.key);
}

/** Deletes the file with its pages, sheets and its pages' printed codes. */
export async function deleteFileRows(tx: Database, fileId: string): Promise<void> {
  // files.cover_page_id points at a page of the file: clear it before the pages go.
  await tx.query('UPDATE files SET cover_page_id = NULL WHERE id = $1', [fileId]);
  await tx.query(`DELETE FROM printed_codes WHERE prefix = 'p' AND target_id IN (SELECT id FROM pages WHERE file_id = $1)`, [fileId]);
  await tx.query('DELETE FROM pages WHERE file_id = $1', [fileId]);
  await tx.query('DELETE FROM answer_sheets WHERE file_id = $1', [fileId]);
  await tx.query('DELETE FROM files WHERE id = $1', [fileId]);
}

/** Drops every job lease held on the file (after its rows are gone: a job finishing takes the lease row first). */
export async function deleteJobLeasesOfFile(db: Database, fileId: string): Promise<void> {
  await db.query('DELETE FROM job_leases WHERE target_id = $1', [fileId]);
}
