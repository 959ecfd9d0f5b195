// The pages of an uploaded service-center file as the scan pipeline reads them: each page is
// stored as it is read (upsert on (file_id, page_number)) with its upright image, so a restart
// resumes at the first page missing with no page lost or doubled.
import { isMissing, type BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { pageFingerprint, type PageFingerprint } from '../pipeline/page-fingerprint';
import type { ProcessedPage } from '../pipeline/process-pages';
import { UnreadablePdfError } from '../pipeline/read-page';
import { storedPageNumbers, upsertReadPage } from '../repositories/pages';

export async function storePage(db: Database, blobStore: BlobStore, fileId: string, page: ProcessedPage): Promise<void> {
  const imageKey = page.image ? (await blobStore.put(page.image.jpeg)).key : null;
  const fingerprint = await fingerprintOf(page);
  // A photographed page keeps the photo as taken, for a reviewer to compare.
  const photoKey = page.photo ? (await blobStore.put(page.photo.asTaken)).key : null;
  await upsertReadPage(db, fileId, {
    page_number: page.page_number,
    blank: page.blank,
    rotation: page.orientation ?? 0,
    code_prefix: page.code?.prefix ?? null,
    code_id: page.code?.id ?? null,
    unrecognized_reason: page.code ? null : page.reason,
    image_blob_key: imageKey,
    read_error: page.error,
    fingerprint_hash: fingerprint?.hash ?? null,
    fingerprint: fingerprint?.print ?? null,
    photo_blob_key: photoKey,
    printed_text: page.printed_text === null ? null : JSON.stringify(page.printed_text),
    identified_by: page.code ? page.identified_by : null,
  });
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
  let expected = 1;
  for (const pageNumber of await storedPageNumbers(db, fileId)) {
    if (pageNumber !== expected) break;
    expected++;
  }
  return expected;
}

/** A file the pipeline cannot open at all fails (page errors never get here: they stay per page). */
export function unreadableReason(error: unknown): string | null {
  // A missing blob is as bad as a PDF that cannot be read.
  if (!(error instanceof UnreadablePdfError) && !isMissing(error)) return null;
  return `The PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
