// A page worker (see page-pool): analyses the pages it is sent on its own thread and posts each
// result back. Pages come as mupdf read them on the thread that has the PDF open (LoadedPage), so
// a worker needs no mupdf of its own. Two pages may be in progress at once, so one's JPEG decodes
// (sharp, on libuv's threads) while the other's codes are searched here.
import { parentPort, workerData } from 'node:worker_threads';
import { analysePage, describe, unreadablePage, type AnalyseOptions, type ProcessedPage } from './analyse-page';
import { postMoved } from './post-moved';
import { closePrintedTextReader } from './printed-text';
import { scanPageOf, type LoadedPage } from './scan-page';
import { useCompiledZxing } from './zxing-reader';

useCompiledZxing((workerData as { zxing: WebAssembly.Module }).zxing);

/** How a file's pages are analysed: sent as a worker is given to a file's pool. */
export interface PageWorkerSettings {
  colour: boolean;
  options: AnalyseOptions;
}

export type PageWorkerRequest =
  | ({ type: 'file' } & PageWorkerSettings)
  /** `id` names the request in the answer: files read at once share workers (page-pool). */
  | { type: 'page'; id: number; pageNumber: number; loaded: LoadedPage }
  | { type: 'close' };

/** What a worker posts back for each page request. */
export interface PageWorkerAnswer {
  id: number;
  page: ProcessedPage;
}

const port = parentPort;
if (!port) throw new Error('page-worker runs in a worker thread');
/** A worker may start before its file is known (page-pool's warm workers): settings come by message. */
let settings: PageWorkerSettings = { colour: false, options: {} };
let inProgress = 0;
let closing = false;

function closeWhenIdle(): void {
  if (!closing || inProgress > 0) return;
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
    settings = { colour: request.colour, options: request.options };
    return;
  }
  const { id, pageNumber, loaded } = request;
  const { colour, options } = settings;
  inProgress++;
  void (async () => {
    try {
      // As a promise, so a page that fails here is kept as unreadable by analysePage.
      const reading = Promise.resolve().then(() => scanPageOf(loaded, { colour }));
      const { finish } = await analysePage(pageNumber, reading, options);
      const page = await finish;
      postMoved(port, { id, page } satisfies PageWorkerAnswer, [page.image?.jpeg]);
    } catch (error) {
      // analysePage keeps page errors in the page; this is only a last resort.
      port.postMessage({ id, page: { ...unreadablePage(pageNumber), error: describe(error) } } satisfies PageWorkerAnswer);
    } finally {
      inProgress--;
      closeWhenIdle();
    }
  })();
});
