// Worker threads for process-pages: each analyses whole pages (decode, codes, blank, image) with
// its own zxing, so the pipeline uses every core. The calling thread reads each page with mupdf
// as it hands it to a worker (a few ms for a scan JPEG, whose bytes are copied out; more for pages
// mupdf decodes or renders) and, in a job, writes the results to the database in order. One
// mupdf for the file rather than one per worker: each instance held 15-20 MB of WebAssembly memory.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { NODE_BUNDLE_OPTIONS } from '../node-bundle';
import { PROJECT_ROOT } from '../project-root';
import { describe, unreadablePage, type AnalyseOptions, type ProcessedPage } from './analyse-page';
import type { PageWorkerRequest, PageWorkerSettings } from './page-worker';
import { postMoved } from './post-moved';
import { compiledZxing } from './zxing-reader';
import { arraysOf, type LoadedPage } from './scan-page';

interface PoolWorker {
  worker: Worker;
  /** Pages sent and not answered yet, by page number. */
  waiting: Map<number, (page: ProcessedPage) => void>;
  /** Removes the pool's listeners, before the worker waits for another file. */
  stopListening: () => void;
}

/** How long a closing worker may take to finish its pages before it is stopped. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Pages a worker analyses at once: one decoding (sharp, on libuv's threads) while another's
 * codes are searched on the worker's thread. More only holds more page images in memory.
 */
export const PAGES_AT_ONCE_PER_WORKER = 2;

export class PagePool {
  private readonly workers: PoolWorker[] = [];
  /** Pages asked for and not sent to a worker yet, in the order asked. */
  private readonly queue: { pageNumber: number; resolve: (page: ProcessedPage) => void }[] = [];
  private closed = false;

  /**
   * `script` from pageWorkerScript(); `readPage` reads a page with mupdf (ScanPdf's
   * readLoadedPage), called as the page is sent to a worker, not before.
   */
  constructor(
    private readonly size: number,
    private readonly settings: PageWorkerSettings,
    private readonly script: PageWorkerScript,
    private readonly readPage: (pageNumber: number) => LoadedPage,
  ) {}

  /**
   * Never rejects: a page whose worker died comes back as an unreadable page. Pages wait here
   * until a worker has room, so a slow page holds up only its own worker: the other one goes on
   * with the pages asked for after it.
   */
  analyse(pageNumber: number): Promise<ProcessedPage> {
    if (this.closed) throw new Error('page pool closed');
    return new Promise((resolve) => {
      this.queue.push({ pageNumber, resolve });
      this.dispatch();
    });
  }

  /** Sends waiting pages to the least busy workers with room, starting workers up to `size`. */
  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let target = this.workers[0];
      for (const candidate of this.workers)
        if (candidate.waiting.size < target!.waiting.size) target = candidate;
      if (!target || (target.waiting.size > 0 && this.workers.length < this.size)) {
        target = this.spawn();
        this.workers.push(target);
      }
      if (target.waiting.size >= PAGES_AT_ONCE_PER_WORKER) return;
      const { pageNumber, resolve } = this.queue.shift()!;
      let loaded: LoadedPage;
      try {
        loaded = this.readPage(pageNumber);
      } catch (error) {
        // As analysePage keeps a page that cannot be read: that page alone is unreadable.
        resolve({ ...unreadablePage(pageNumber), error: describe(error) });
        continue;
      }
      target.waiting.set(pageNumber, resolve);
      postMoved(
        target.worker,
        { type: 'page', pageNumber, loaded } satisfies PageWorkerRequest,
        arraysOf(loaded),
      );
    }
  }

  /** Lets each worker finish what it has, close its PDF and stop. */
  async close(): Promise<void> {
    this.closed = true;
    for (const { pageNumber, resolve } of this.queue.splice(0))
      resolve({ ...unreadablePage(pageNumber), error: 'page pool closed' });
    await Promise.all(
      this.workers.map(async (entry) => {
        const { worker } = entry;
        // A worker with nothing left to answer waits for the next file, which then spends no
        // time starting it, nor CPU optimising its code again: some 2 s per file on V8's
        // threads, measured on the 500-page test scan.
        if (entry.waiting.size === 0) {
          entry.stopListening();
          if (keepForNextFile(worker, this.script, this.size)) return;
        }
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ type: 'close' } satisfies PageWorkerRequest);
        const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
    this.workers.length = 0;
  }

  private spawn(): PoolWorker {
    const worker = takeWarmWorker(this.script) ?? startWorker(this.script);
    worker.postMessage({ type: 'file', ...this.settings } satisfies PageWorkerRequest);
    const entry: PoolWorker = { worker, waiting: new Map(), stopListening: () => undefined };
    const failAll = (reason: string) => {
      for (const [pageNumber, resolve] of entry.waiting)
        resolve({ ...unreadablePage(pageNumber), error: reason });
      entry.waiting.clear();
      const index = this.workers.indexOf(entry);
      // Waiting pages get a fresh worker.
      if (index >= 0) this.workers.splice(index, 1);
      this.dispatch();
    };
    const onMessage = (page: ProcessedPage) => {
      const resolve = entry.waiting.get(page.page_number);
      entry.waiting.delete(page.page_number);
      resolve?.(page);
      this.dispatch();
    };
    const onError = (error: Error) => failAll(`page worker failed: ${error.message}`);
    const onExit = (code: number) => failAll(`page worker stopped (exit code ${code})`);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    entry.stopListening = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    return entry;
  }
}

export type { AnalyseOptions };

function startWorker({ url, tsx, zxing }: PageWorkerScript): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { workerUrl: url, tsxLoader: tsx ? TSX_LOADER : null, zxing },
    // A worker under tsx registers its own TypeScript loader; inherited flags would register a second.
    execArgv: [],
  });
}

/** How long a warm worker waits for a file before it stops. */
export const WARM_WORKER_IDLE_MS = 120_000;

interface WarmWorker {
  worker: Worker;
  url: string;
  expiry: NodeJS.Timeout;
  /** The listeners added while it waits, removed when a pool takes it. */
  stopListening: () => void;
}

/**
 * Workers waiting for a file: started ahead of it (warmPageWorkers) or left by the previous
 * file's pool (keepForNextFile), for the next pool to take.
 */
const warmWorkers: WarmWorker[] = [];

/**
 * Starts page workers ahead of a file, up to `count` waiting, so that the file's first pages do
 * not wait for them: a worker takes ~0.3 s to start (sharp loaded, its code run cold). Called as
 * an upload this process will read starts arriving. A worker no pool has taken stops after
 * `idleMs` (the upload failed, or the file was too small for workers); waiting, it keeps no
 * process alive.
 */
export async function warmPageWorkers(count: number, idleMs = WARM_WORKER_IDLE_MS): Promise<void> {
  const script = await pageWorkerScript();
  while (warmWorkers.length < count) wait(startWorker(script), script.url, idleMs);
}

/**
 * A pool's worker with nothing left to do waits for the next file, as one started ahead does,
 * unless `limit` workers of its kind are waiting already. Its heap is collected meanwhile.
 */
function keepForNextFile(worker: Worker, script: PageWorkerScript, limit: number): boolean {
  if (warmWorkers.filter((entry) => entry.url === script.url).length >= limit) return false;
  worker.postMessage({ type: 'idle' } satisfies PageWorkerRequest);
  wait(worker, script.url, WARM_WORKER_IDLE_MS);
  return true;
}

function wait(worker: Worker, url: string, idleMs: number): void {
  worker.unref();
  // Listened to so a worker that fails while waiting is dropped rather than thrown.
  const drop = () => forget(entry);
  worker.on('error', drop);
  worker.on('exit', drop);
  const entry: WarmWorker = {
    worker,
    url,
    expiry: setTimeout(() => {
      forget(entry);
      worker.postMessage({ type: 'close' } satisfies PageWorkerRequest);
    }, idleMs),
    stopListening: () => {
      worker.off('error', drop);
      worker.off('exit', drop);
    },
  };
  entry.expiry.unref();
  warmWorkers.push(entry);
}

/** Workers waiting for a file and not taken yet. */
export function warmPageWorkerCount(): number {
  return warmWorkers.length;
}

/** Stops every worker waiting for a file (on shutdown, and between tests). */
export async function stopWaitingPageWorkers(): Promise<void> {
  await Promise.all(
    warmWorkers.splice(0).map((entry) => {
      clearTimeout(entry.expiry);
      entry.stopListening();
      return entry.worker.terminate();
    }),
  );
}

function forget(entry: WarmWorker): void {
  const index = warmWorkers.indexOf(entry);
  if (index >= 0) warmWorkers.splice(index, 1);
  clearTimeout(entry.expiry);
}

function takeWarmWorker(script: PageWorkerScript): Worker | null {
  const entry = warmWorkers.find((candidate) => candidate.url === script.url);
  if (!entry) return null;
  forget(entry);
  // The pool listens for itself from here.
  entry.stopListening();
  entry.worker.ref();
  return entry.worker;
}

/** What the page workers run, found (and compiled) once per process. */
export interface PageWorkerScript {
  /**
   * The worker module: plain JavaScript when there is some (the built server, or the worker
   * bundled once per process with esbuild), else the TypeScript source through tsx's loader
   * (`tsx`). The loader costs each worker a second thread and some 30 MB: only the fallback.
   */
  url: string;
  tsx: boolean;
  zxing: WebAssembly.Module;
}

let script: Promise<PageWorkerScript> | null = null;

export function pageWorkerScript(): Promise<PageWorkerScript> {
  script ??= Promise.all([findPageWorkerModule(), compiledZxing()]).then(([found, zxing]) => ({
    ...found,
    zxing,
  }));
  return script;
}

async function findPageWorkerModule(): Promise<Omit<PageWorkerScript, 'zxing'>> {
  const source = fileURLToPath(WORKER_URL);
  if (!source.endsWith('.ts')) return { url: WORKER_URL, tsx: false };
  try {
    const { build } = await import('esbuild');
    const result = await build({
      ...NODE_BUNDLE_OPTIONS,
      entryPoints: [source],
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.contents;
    // Inside node_modules so the bundle's package imports resolve; named by content, so
    // processes running different versions never share one.
    const dir = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'portal');
    const file = path.join(
      dir,
      `page-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
    );
    await mkdir(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, file);
    return { url: pathToFileURL(file).href, tsx: false };
  } catch {
    // A read-only install, say: the TypeScript source still runs, through the loader.
    return { url: WORKER_URL, tsx: true };
  }
}

const here = fileURLToPath(import.meta.url);
/**
 * page-worker next to this module, in whatever form this one runs: .ts under tsx, or .mjs in the
 * server's build (scripts/build-server.ts makes it an entry of its own, beside this one's chunk).
 */
const WORKER_URL = pathToFileURL(
  path.join(path.dirname(here), `page-worker${path.extname(here)}`),
).href;
/** tsx's ESM API: its register() gives the calling thread TypeScript imports. */
const TSX_LOADER = pathToFileURL(
  path.join(path.dirname(createRequire(import.meta.url).resolve('tsx')), 'esm', 'api', 'index.mjs'),
).href;

// Plain CommonJS run by the worker before anything is imported: TypeScript support is registered
// when needed (as `tsx` gives this thread), then the worker module is imported.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(workerData.tsxLoader ? import(workerData.tsxLoader).then((tsx) => tsx.register()) : Promise.resolve())
  .then(() => import(workerData.workerUrl))
  .catch((error) => setImmediate(() => { throw error; }));
`;
