// The pages of an uploaded service-center file as the scan pipeline reads them: each page is
// stored as it is read (upsert on (file_id, page_number)) with its upright image, so a restart
// resumes at the first page missing with no page lost or doubled.
import { isMissing, type BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { pageFingerprint, type PageFingerprint } from '../pipeline/page-fingerprint';
import type { ProcessedPage } from '../pipeline/process-pages';
import { UnreadablePdfError } from '../pipeline/read-page';

export interface PendingFile {
  blob_key: string;
}

/** The file while it waits to be processed; null once done, failed or deleted. */
export async function pendingFile(db: Database, fileId: string): Promise<PendingFile | null> {
  return db.maybeOne<PendingFile>(`SELECT blob_key FROM files WHERE id = $1 AND process_status = 'pending'`, [fileId]);
}

export async function storePage(db: Database, blobStore: BlobStore, fileId: string, page: ProcessedPage): Promise<void> {
  const imageKey = page.image ? (await blobStore.put(page.image.jpeg)).key : null;
  const fingerprint = await fingerprintOf(page);
  // A photographed page keeps the photo as taken, for a reviewer to compare.
  const photoKey = page.photo ? (await blobStore.put(page.photo.asTaken)).key : null;
  await db.query(
    `INSERT INTO pages (file_id, page_number, blank, ignored, rotation, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error,
                        fingerprint_hash, fingerprint, photo_blob_key, printed_text, identified_by)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (file_id, page_number) DO UPDATE SET
       blank = EXCLUDED.blank, ignored = EXCLUDED.ignored, rotation = EXCLUDED.rotation,
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id,
       unrecognized_reason = EXCLUDED.unrecognized_reason, image_blob_key = EXCLUDED.image_blob_key,
       read_error = EXCLUDED.read_error, fingerprint_hash = EXCLUDED.fingerprint_hash, fingerprint = EXCLUDED.fingerprint,
       photo_blob_key = EXCLUDED.photo_blob_key, printed_text = EXCLUDED.printed_text, identified_by = EXCLUDED.identified_by`,
    [
      fileId,
      page.page_number,
      page.blank,
      page.orientation ?? 0,
      page.code?.prefix ?? null,
      page.code?.id ?? null,
      page.code ? null : page.reason,
      imageKey,
      page.error,
      fingerprint?.hash ?? null,
      fingerprint?.print ?? null,
      photoKey,
      page.printed_text === null ? null : JSON.stringify(page.printed_text),
      page.code ? page.identified_by : null,
    ],
  );
}

/**
 * The page's fingerprint (paper-seen.ts), from its upright image; none for blank pages. A page
 * whose image cannot be fingerprinted is simply not compared: it keeps every other check.
 */
export async function fingerprintOf(page: ProcessedPage): Promise<PageFingerprint | null> {
  if (!page.image || page.blank) return null;
  try {
    return await pageFingerprint(page.image.jpeg);
  } catch {
    return null;
  }
}

/** Pages are stored in order, so this is one past the last stored page (or the first gap). */
export async function firstMissingPage(db: Database, fileId: string): Promise<number> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
  let expected = 1;
  for (const row of rows) {
    if (row.page_number !== expected) break;
    expected++;
  }
  return expected;
}

export async function countFailedPages(db: Database, fileId: string): Promise<number> {
  const row = await db.one<{ failed: number }>('SELECT count(*) AS failed FROM pages WHERE file_id = $1 AND read_error IS NOT NULL', [fileId]);
  return Number(row.failed);
}

/** Marks a pending file failed with its reason; false when it was not pending any more. */
export async function failFile(db: Database, fileId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE files SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`,
    [fileId, reason],
  );
  return changed > 0;
}

/** A file the pipeline cannot open at all fails (page errors never get here: they stay per page). */
export function unreadableReason(error: unknown): string | null {
  // A missing blob is as bad as a PDF that cannot be read.
  if (!(error instanceof UnreadablePdfError) && !isMissing(error)) return null;
  return `The PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
