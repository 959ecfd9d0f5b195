// A file uploaded as photos of pages, downloaded as a PDF: one page per photo as taken (the JPEG
// kept beside each page, at most 2000 px), in the order taken. Nothing is decoded: the JPEGs are
// placed as they are, so this costs the event loop no more than copying them.
import type { BlobStore } from '../../blob-store';
import type { Database } from '../../db/database';
import { notFound } from '../../http-error';
import { photoKeysOfFilePages } from '../../repositories/pages';
import { photoCountOfFile } from '../../repositories/upload-photos';
import { readBlob } from '../../workflow/blob-files';

/** The PDF of a photo file's pages; null when the file did not come as photos. */
export async function photosPdf(
  db: Database,
  blobStore: BlobStore,
  fileId: string,
): Promise<Uint8Array | null> {
  const photoCount = await photoCountOfFile(db, fileId);
  if (photoCount === 0) return null;
  const photoKeys = await photoKeysOfFilePages(db, fileId);
  if (photoKeys.length < photoCount || photoKeys.some((key) => key === null)) {
    throw notFound(
      'The photos of this file are still being read: download it once it is processed.',
    );
  }
  // pdf-lib is loaded when first needed, as all drawing code is (server/pdf/lazy-drawing.ts).
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  for (const key of photoKeys) {
    const image = await pdf.embedJpg(await readBlob(blobStore, key!));
    // A photo's pixels at 150 dpi: a whole sheet fills about a page.
    const scale = 72 / 150;
    pdf
      .addPage([image.width * scale, image.height * scale])
      .drawImage(image, { x: 0, y: 0, width: image.width * scale, height: image.height * scale });
  }
  return pdf.save();
}
