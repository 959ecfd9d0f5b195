// A page worker (see page-pool): reads the pages it is sent with its own mupdf and analyses them
// on its own thread, posting each result back. Reading is where a hostile PDF costs (a flate bomb,
// a huge page), so it happens here, where the pool can time it and stop this thread, never on the
// server's. Two pages may be in progress at once, so one's JPEG decodes (sharp, on libuv's
// threads) while the other's codes are searched here.
import { parentPort, workerData } from 'node:worker_threads';
import { analysePage, describe, unreadablePage, type AnalyseOptions, type ProcessedPage } from './analyse-page';
import { postMoved } from './post-moved';
import { closePrintedTextReader } from './printed-text';
import { openPhotoPages, type PhotoOfPage } from './photo-pages';
import { openScanPdfAt, type ScanPdf } from './read-page';
import { scanPageOf, type ScanPage } from './scan-page';
import { useCompiledZxing } from './zxing-reader';

useCompiledZxing((workerData as { zxing: WebAssembly.Module }).zxing);

/** How a file's pages are read and analysed: sent as a worker is given to a file's pool. */
export interface PageWorkerSettings {
  /** Names the file among those read at once: its descriptor, or a negative number for photos. */
  fileKey: number;
  /**
   * A PDF's descriptor, opened (and closed) by the pool's caller: it outlives a stopped worker; or
   * the photos that are its pages, on local disk, decoded here like any page.
   */
  source: { fd: number } | { photos: PhotoOfPage[] };
  colour: boolean;
  options: AnalyseOptions;
}

export type PageWorkerRequest =
  | ({ type: 'file' } & PageWorkerSettings)
  /** `id` names the request in the answers: files read at once share workers (page-pool). */
  | { type: 'page'; id: number; pageNumber: number }
  /** The file is done: close what this worker has open of it. */
  | { type: 'forget'; fileKey: number }
  | { type: 'close' };

/**
 * What a worker posts for each page request: when mupdf starts and stops reading it (the pool
 * times that), then the page.
 */
export type PageWorkerAnswer =
  | { type: 'reading'; id: number }
  | { type: 'read'; id: number }
  | { type: 'page'; id: number; page: ProcessedPage };

const port = parentPort;
if (!port) throw new Error('page-worker runs in a worker thread');
/** A worker may start before its file is known (page-pool's warm workers): settings come by message. */
let settings: PageWorkerSettings = { fileKey: 0, source: { fd: -1 }, colour: false, options: {} };
/** The files this worker has open, by file key: it takes turns between files read at once. */
const open = new Map<number, ScanPdf>();
let inProgress = 0;
let closing = false;

function closeWhenIdle(): void {
  if (!closing || inProgress > 0) return;
  for (const pdf of open.values()) pdf.close();
  open.clear();
  // The OCR worker is a thread of this thread's: ended first, or it would keep this one alive.
  void closePrintedTextReader().finally(() => port!.close());
}

port.on('message', (request: PageWorkerRequest) => {
  if (request.type === 'close') {
    closing = true;
    closeWhenIdle();
    return;
  }
  if (request.type === 'file') {
    settings = { fileKey: request.fileKey, source: request.source, colour: request.colour, options: request.options };
    return;
  }
  if (request.type === 'forget') {
    open.get(request.fileKey)?.close();
    open.delete(request.fileKey);
    return;
  }
  const { id, pageNumber } = request;
  const { fileKey, source, colour, options } = settings;
  inProgress++;
  void (async () => {
    try {
      // A PDF's page is read synchronously: nothing else runs on this thread until mupdf is done, or the pool stops it.
      port.postMessage({ type: 'reading', id } satisfies PageWorkerAnswer);
      let read: () => ScanPage;
      try {
        let pdf = open.get(fileKey);
        if (!pdf) open.set(fileKey, (pdf = 'fd' in source ? openScanPdfAt(source.fd) : openPhotoPages(source.photos)));
        const loaded = pdf.readLoadedPage(pageNumber, { colour });
        const scan = scanPageOf(loaded, { colour });
        // A photo is decoded and straightened before its reading ends, so the reading's limits
        // hold it too: an image is as hostile as a PDF. Its errors surface in analysePage.
        if ('photo' in loaded) await scan.raster().catch(() => undefined);
        read = () => scan;
      } catch (error) {
        read = () => {
          throw error;
        };
      }
      port.postMessage({ type: 'read', id } satisfies PageWorkerAnswer);
      // As a promise, so a page that fails here is kept as unreadable by analysePage.
      const { finish } = await analysePage(pageNumber, Promise.resolve().then(read), options);
      const page = await finish;
      postMoved(port, { type: 'page', id, page } satisfies PageWorkerAnswer, [page.image?.jpeg, page.photo?.asTaken]);
    } catch (error) {
      // analysePage keeps page errors in the page; this is only a last resort.
      port.postMessage({ type: 'page', id, page: { ...unreadablePage(pageNumber), error: describe(error) } } satisfies PageWorkerAnswer);
    } finally {
      inProgress--;
      closeWhenIdle();
    }
  })();
});
