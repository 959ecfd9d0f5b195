// Scanned pages: the blobs of a page's upright image and of the photo it came as.
import type { Database } from '../db/database';

/** The page's upright image (null: none yet); the page must exist. */
export async function pageImageKey(db: Database, pageId: string): Promise<string | null> {
  return (await db.one<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE id = $1', [pageId])).image_blob_key;
}

/** The photo the page came as (null: it was scanned); the page must exist. */
export async function pagePhotoKey(db: Database, pageId: string): Promise<string | null> {
  return (await db.one<{ photo_blob_key: string | null }>('SELECT photo_blob_key FROM pages WHERE id = $1', [pageId])).photo_blob_key;
}
