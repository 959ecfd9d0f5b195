// Page prints made before the current way of framing a page (PRINT_VERSION) cannot be laid over
// new ones, so a rescan of paper uploaded before an upgrade would go unseen. They are made again
// from the page images already stored, newest first, only as far back as paper is compared.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { PRINT_VERSION, pageFingerprint } from '../pipeline/page-fingerprint';
import { readBlob } from './blob-files';
import { SEEN_PAPER_DAYS } from './paper-seen';

/** Pages refreshed per round: one round's prints are written together. */
const ROUND = 50;

/** Refreshes every page print older than PRINT_VERSION; the number of pages refreshed. */
export async function refreshPagePrints(db: Database, blobStore: BlobStore): Promise<number> {
  let refreshed = 0;
  for (;;) {
    const pages = await db.query<{ id: string; image_blob_key: string | null }>(
      `SELECT id, image_blob_key FROM pages
       WHERE fingerprint IS NOT NULL AND get_byte(fingerprint, 0) < $1
         AND created_at > now() - make_interval(days => $2)
       ORDER BY created_at DESC LIMIT $3`,
      [PRINT_VERSION, SEEN_PAPER_DAYS, ROUND],
    );
    if (pages.length === 0) return refreshed;
    for (const page of pages) {
      const print = page.image_blob_key === null ? null : await readBlob(blobStore, page.image_blob_key).then(pageFingerprint, () => null);
      // A page whose image is gone or unreadable is no longer compared, as if never fingerprinted.
      await db.query('UPDATE pages SET fingerprint_hash = $2, fingerprint = $3 WHERE id = $1', [page.id, print?.hash ?? null, print?.print ?? null]);
      refreshed++;
    }
  }
}
