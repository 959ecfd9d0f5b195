// Page prints made before the current way of framing a page (PRINT_VERSION) cannot be laid over
// new ones, so a rescan of paper uploaded before an upgrade would go unseen. They are made again
// from the page images already stored, newest first, only as far back as paper is compared.
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { PRINT_VERSION, pageFingerprint } from '../pipeline/page-fingerprint';
import { pagesWithOldPrints, storePagePrint } from '../repositories/pages';
import { readBlob } from './blob-files';
import { SEEN_PAPER_DAYS } from './paper-seen';

/** Pages refreshed per round: one round's prints are written together. */
const ROUND = 50;

/** Refreshes every page print older than PRINT_VERSION; the number of pages refreshed. */
export async function refreshPagePrints(db: Database, blobStore: BlobStore): Promise<number> {
  let refreshed = 0;
  for (;;) {
    const pages = await pagesWithOldPrints(db, PRINT_VERSION, SEEN_PAPER_DAYS, ROUND);
    if (pages.length === 0) return refreshed;
    for (const page of pages) {
      const print = page.image_blob_key === null ? null : await readBlob(blobStore, page.image_blob_key).then(pageFingerprint, () => null);
      // A page whose image is gone or unreadable is no longer compared, as if never fingerprinted.
      await storePagePrint(db, page.id, print?.hash ?? null, print?.print ?? null);
      refreshed++;
    }
  }
}
