// Page thumbnails (500 px for lists, 1000 px for page items), made from the stored upright page
// image on first request and kept in the blob store, so each is made once. Two requests racing
// make the same bytes (content addressing), so either result is right.
import sharp from 'sharp';
import type { BlobStore } from '../../blob-store';
import type { Database } from '../../db/database';
import { notFound } from '../../http-error';
import { THUMBNAIL_QUALITY, THUMBNAIL_WIDTHS } from '../../jobs/job-types';
import { pageImageAndThumbnail, savePageThumbnail } from '../../repositories/pages';

export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** The blob key of the page's thumbnail of this width, made now if it does not exist yet. */
export async function pageThumbnail(db: Database, blobStore: BlobStore, pageId: string, width: ThumbnailWidth): Promise<string> {
  const row = await pageImageAndThumbnail(db, pageId, width);
  if (row === null) throw notFound('Page not found');
  if (row.thumbnail !== null && (await blobStore.stat(row.thumbnail)) !== null) return row.thumbnail;
  if (row.image_blob_key === null) throw notFound('This page has no image');
  const source = await readBlob(blobStore, row.image_blob_key);
  // Page images may be shown upright by their EXIF orientation (a turned scan kept as it came):
  // thumbnails are turned for real, and carry no EXIF.
  const jpeg = await sharp(source)
    .autoOrient()
    .resize({ width, withoutEnlargement: true })
    .jpeg({ quality: THUMBNAIL_QUALITY, mozjpeg: false })
    .toBuffer();
  const { key } = await blobStore.put(jpeg);
  await savePageThumbnail(db, pageId, width, key);
  return key;
}

async function readBlob(blobStore: BlobStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobStore.createReadStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
