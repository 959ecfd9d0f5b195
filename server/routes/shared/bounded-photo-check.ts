// The upload-time photo check, bounded as the PDF check is (bounded-pdf-check): sharp and
// libheif read untrusted headers on a worker thread with a heap limit, stopped after a time
// limit, so the upload request never holds the event loop.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BOOTSTRAP, TSX_LOADER, workerModule } from '../../pipeline/page-pool';
import type { PhotoMediaType } from '../../pipeline/photo-page';
import { PhotoCheckError } from './photo-check';
import type { PhotoCheckAnswer } from './photo-check-worker';

/** How long checking an upload's photos may take (50 photos' headers: well under a second). */
export const PHOTO_CHECK_TIME_LIMIT_MS = 20_000;
/** The checking thread's JavaScript heap (libheif's WebAssembly memory is bounded by MAX_PHOTO_BYTES). */
const CHECK_HEAP_MB = 96;

const here = fileURLToPath(import.meta.url);
const WORKER_URL = pathToFileURL(
  path.join(path.dirname(here), `photo-check-worker${path.extname(here)}`),
).href;

/** Thrown for the photo at `index` (0-based) with what is wrong with it. */
export class PhotoRefusedError extends PhotoCheckError {
  constructor(
    readonly index: number,
    problem: string,
  ) {
    super(problem);
  }
}

/** Each photo's size, in order; throws PhotoRefusedError for the first photo that fails. */
export async function checkPhotosBounded(
  photos: { path: string; mediaType: PhotoMediaType }[],
  timeLimitMs = PHOTO_CHECK_TIME_LIMIT_MS,
): Promise<{ width: number; height: number }[]> {
  const script = await workerModule(WORKER_URL);
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { workerUrl: script.url, tsxLoader: script.tsx ? TSX_LOADER : null, photos },
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
    const tooLong = () =>
      new PhotoRefusedError(0, `the photos could not be checked within ${timeLimitMs / 1000} s`);
    const timer = setTimeout(() => settle(() => reject(tooLong())), timeLimitMs);
    worker.once('message', (answer: PhotoCheckAnswer) =>
      settle(() =>
        'sizes' in answer
          ? resolve(answer.sizes)
          : reject(new PhotoRefusedError(answer.index, answer.problem)),
      ),
    );
    worker.once('error', (error) =>
      settle(() =>
        reject(new PhotoRefusedError(0, `the photos could not be checked (${error.message})`)),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new PhotoRefusedError(0, `the photo check stopped (exit code ${code})`))),
    );
  });
}
