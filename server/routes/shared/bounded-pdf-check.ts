// The upload-time PDF check, bounded: mupdf opens an untrusted file (a broken cross-reference
// table makes it rebuild one, 400,000 objects take seconds) on a worker thread with a heap limit,
// which is stopped after CHECK_TIME_LIMIT_MS, so the upload request never holds the event loop.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BOOTSTRAP, TSX_LOADER, workerModule } from '../../pipeline/page-pool';
import { PdfCheckError } from './pdf-check';
import type { PdfCheckAnswer } from './pdf-check-worker';

/** How long checking one upload may take (a sound 1.5 GB scan: well under a second). */
export const CHECK_TIME_LIMIT_MS = 20_000;
/** The checking thread's JavaScript heap (mupdf's own memory is its WebAssembly heap, capped by mupdf). */
const CHECK_HEAP_MB = 64;

const here = fileURLToPath(import.meta.url);
/** pdf-check-worker beside this module: .ts from source (through tsx), .mjs in the build. */
const WORKER_URL = pathToFileURL(path.join(path.dirname(here), `pdf-check-worker${path.extname(here)}`)).href;

/** checkPdf on a thread of its own: the page count, or a PdfCheckError ('too_complex' past the limits). */
export async function checkPdfBounded(file: string, timeLimitMs = CHECK_TIME_LIMIT_MS): Promise<{ pageCount: number }> {
  const script = await workerModule(WORKER_URL);
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { workerUrl: script.url, tsxLoader: script.tsx ? TSX_LOADER : null, path: file },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: CHECK_HEAP_MB },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new PdfCheckError('too_complex', `not checked within ${timeLimitMs / 1000} s`))), timeLimitMs);
    worker.once('message', (answer: PdfCheckAnswer) =>
      settle(() => ('pageCount' in answer ? resolve(answer) : reject(new PdfCheckError(answer.problem, answer.detail)))),
    );
    worker.once('error', (error) => settle(() => reject(new PdfCheckError('too_complex', error.message))));
    worker.once('exit', (code) => settle(() => reject(new PdfCheckError('too_complex', `the check stopped (exit code ${code})`))));
  });
}
