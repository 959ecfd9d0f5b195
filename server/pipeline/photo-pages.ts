// Photos of pages as a page source for process-pages, in place of a PDF: page n is the n-th
// photo, in the order taken. Each is read from disk when its page is read and straightened where
// it is decoded (photo-page), on a page worker like a PDF's pages.
import { readFileSync } from 'node:fs';
import type { PhotoMediaType } from './photo-page';
import type { ScanPdf } from './read-page';
import { decodeLoaded, scanPageOf, type LoadedPage, type ReadPageOptions } from './scan-page';

export interface PhotoOfPage {
  /** The photo's bytes on local disk. */
  path: string;
  mediaType: PhotoMediaType;
}

export function openPhotoPages(photos: readonly PhotoOfPage[]): ScanPdf {
  const readLoadedPage = (pageNumber: number): LoadedPage => {
    const photo = photos[pageNumber - 1];
    if (!photo) throw new RangeError(`no photo ${pageNumber}`);
    return { photo: new Uint8Array(readFileSync(photo.path)), mediaType: photo.mediaType };
  };
  return {
    pageCount: photos.length,
    readLoadedPage,
    readPage: async (pageNumber: number, options?: ReadPageOptions) =>
      decodeLoaded(readLoadedPage(pageNumber), options ?? {}),
    loadPage: async (pageNumber: number, options?: ReadPageOptions) =>
      scanPageOf(readLoadedPage(pageNumber), options),
    close: () => undefined,
  };
}
