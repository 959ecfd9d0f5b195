// Worker threads for process-pages: each reads whole pages with its own mupdf and analyses them
// (decode, codes, blank, image) with its own zxing, so the pipeline uses every core and no PDF is
// ever read on the job's thread (in the embedded server, the thread that answers requests).
// Reading an untrusted page is bounded: a worker that reads one page for longer than
// PAGE_READ_TIME_LIMIT_MS, or grows the process by PAGE_READ_MEMORY_LIMIT_MB while reading it, is
// stopped and replaced; that page is kept as too complex to read and the file goes on (a file
// with SUSPECT_FILE_STRIKES such pages gets a shorter limit for the rest).
// The workers are the process's, not a file's: files read at once take turns on them.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { NODE_BUNDLE_OPTIONS } from '../node-bundle';
import { PROJECT_ROOT } from '../project-root';
import { tooComplexPage, unreadablePage, type AnalyseOptions, type ProcessedPage } from './analyse-page';
import type { PageWorkerAnswer, PageWorkerRequest, PageWorkerSettings } from './page-worker';
import { compiledZxing } from './zxing-reader';

/**
 * How long mupdf may read one page: a scan's page takes milliseconds, a rendered one well under a
 * second even on a busy machine, while a flate bomb's page takes minutes.
 */
export const PAGE_READ_TIME_LIMIT_MS = 10_000;
/**
 * How much the process may grow while a page is read: a page within the pixel budget
 * (MAX_PAGE_PIXELS) needs under 100 MB; mupdf alone would go on to 2 GB. The process's resident
 * memory is what is watched: mupdf's WebAssembly memory is outside any heap limit a worker takes.
 */
export const PAGE_READ_MEMORY_LIMIT_MB = 512;
/**
 * Pages of one file stopped at a limit after which the file is taken for hostile: its other pages
 * get SUSPECT_PAGE_TIME_MS each, so a file of bombs holds a worker a second per page, not ten,
 * and the files taking turns with it are not kept waiting.
 */
export const SUSPECT_FILE_STRIKES = 3;
/** A hostile file's page limit: a scan's page still reads in milliseconds. */
export const SUSPECT_PAGE_TIME_MS = 1_000;
/** How often the process's memory is looked at while a page is read (a cheap /proc read). */
const MEMORY_CHECK_MS = 50;
/**
 * A page worker's JavaScript heap: its pixels live outside it (array buffers, WebAssembly), so a
 * worker that fills this much is stuck in something no page needs.
 */
const PAGE_WORKER_HEAP_MB = 256;

/** The limits one page's reading is held to (the defaults above; tests and benchmarks set others). */
export interface ReadingLimits {
  pageTimeMs: number;
  pageMemoryMb: number;
}

export const READING_LIMITS: ReadingLimits = {
  pageTimeMs: PAGE_READ_TIME_LIMIT_MS,
  pageMemoryMb: PAGE_READ_MEMORY_LIMIT_MB,
};

interface PoolWorker {
  worker: Worker;
  /** Pages sent and not answered yet, by request id. */
  waiting: Map<number, PageRequest>;
  /** The page mupdf is reading now (one at a time: it reads synchronously), since when, and the process's size then. */
  reading: { id: number; since: number; rss: number } | null;
  /** The file whose settings the worker was last sent (it analyses by them until told others). */
  settingsOf: PagePool | null;
  /** Removes the group's listeners, before the worker waits for another file. */
  stopListening: () => void;
}

interface PageRequest {
  pool: PagePool;
  pageNumber: number;
  resolve: (page: ProcessedPage) => void;
}

/** How long a closing worker may take to finish its pages before it is stopped. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Pages a worker analyses at once: one decoding (sharp, on libuv's threads) while another's
 * codes are searched on the worker's thread. More only holds more page images in memory.
 */
export const PAGES_AT_ONCE_PER_WORKER = 2;

/**
 * The page workers of this process, shared by every file read at once: a second file takes
 * turns with the first on the same workers rather than starting its own, so a small file passes
 * a large one without the process holding twice the workers (and their memory).
 */
class WorkerGroup {
  readonly workers: PoolWorker[] = [];
  /** Files reading now, in turn order. */
  readonly pools: PagePool[] = [];
  private nextTurn = 0;
  private nextRequestId = 1;
  /** Watches the reading workers' time and memory while any reads. */
  private watch: NodeJS.Timeout | null = null;

  constructor(readonly script: PageWorkerScript) {}

  /** The most workers any file reading now asked for. */
  private get size(): number {
    return Math.max(0, ...this.pools.map((pool) => pool.size));
  }

  /**
   * Sends waiting pages to the least busy workers with room, starting workers up to `size`;
   * the files with pages waiting take turns, a page each.
   */
  dispatch(): void {
    for (;;) {
      const pool = this.takeTurn();
      if (!pool) return;
      let target = this.workers[0];
      for (const candidate of this.workers)
        if (candidate.waiting.size < target!.waiting.size) target = candidate;
      if (!target || (target.waiting.size > 0 && this.workers.length < this.size)) {
        target = this.spawn();
        this.workers.push(target);
      }
      if (target.waiting.size >= PAGES_AT_ONCE_PER_WORKER) return;
      this.nextTurn = this.pools.indexOf(pool) + 1;
      const { pageNumber, resolve } = pool.queue.shift()!;
      if (target.settingsOf !== pool) {
        // A worker reads each page by the settings it last had when the page came.
        target.worker.postMessage({ type: 'file', ...pool.settings } satisfies PageWorkerRequest);
        target.settingsOf = pool;
      }
      const id = this.nextRequestId++;
      target.waiting.set(id, { pool, pageNumber, resolve });
      pool.inFlight++;
      target.worker.postMessage({ type: 'page', id, pageNumber } satisfies PageWorkerRequest);
    }
  }

  /** The next file in turn with pages waiting. */
  private takeTurn(): PagePool | undefined {
    for (let i = 0; i < this.pools.length; i++) {
      const pool = this.pools[(this.nextTurn + i) % this.pools.length]!;
      if (pool.queue.length > 0) return pool;
    }
    return undefined;
  }

  /** A file is done: when it was the last, the workers wait for the next file or stop. */
  async leave(pool: PagePool): Promise<void> {
    const index = this.pools.indexOf(pool);
    if (index >= 0) this.pools.splice(index, 1);
    for (const entry of this.workers) {
      if (entry.settingsOf === pool) entry.settingsOf = null;
      entry.worker.postMessage({ type: 'forget', fileKey: pool.settings.fileKey } satisfies PageWorkerRequest);
    }
    if (this.pools.length > 0) {
      this.dispatch();
      return;
    }
    const workers = this.workers.splice(0);
    await Promise.all(
      workers.map(async (entry) => {
        const { worker } = entry;
        // A worker with nothing left to answer waits for the next file, which then spends no
        // time starting it, nor CPU optimising its code again: some 2 s per file on V8's
        // threads, measured on the 500-page test scan.
        if (entry.waiting.size === 0) {
          entry.stopListening();
          if (keepForNextFile(worker, this.script, Math.max(1, pool.size))) return;
        }
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ type: 'close' } satisfies PageWorkerRequest);
        const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /** Stops the workers still analysing `pool`'s pages (it gave up waiting for them). */
  async stopWorkersOf(pool: PagePool): Promise<void> {
    const stuck = this.workers.filter((entry) => [...entry.waiting.values()].some((request) => request.pool === pool));
    await Promise.all(stuck.map((entry) => entry.worker.terminate()));
  }

  /**
   * Stops a worker whose page went past a limit and starts afresh without it: that page is kept
   * as too complex to read, the worker's other pages go back to the front of their files' queues.
   */
  private stopReading(entry: PoolWorker, detail: string): void {
    const index = this.workers.indexOf(entry);
    if (index >= 0) this.workers.splice(index, 1);
    entry.stopListening();
    void entry.worker.terminate();
    const readingId = entry.reading?.id;
    entry.reading = null;
    const requests = [...entry.waiting.entries()];
    entry.waiting.clear();
    for (const [id, request] of requests.reverse()) {
      if (id === readingId) {
        request.pool.strikes++;
        answer(request, tooComplexPage(request.pageNumber, detail));
      } else if (request.pool.isClosed) {
        answer(request, { ...unreadablePage(request.pageNumber), error: 'page pool closed' });
      } else {
        request.pool.inFlight--;
        request.pool.queue.unshift({ pageNumber: request.pageNumber, resolve: request.resolve });
      }
    }
    this.dispatch();
  }

  /** Called every MEMORY_CHECK_MS while some worker reads a page; stops when none does. */
  private checkReading(): void {
    const reading = this.workers.filter((entry) => entry.reading !== null);
    if (reading.length === 0) {
      if (this.watch) clearInterval(this.watch);
      this.watch = null;
      return;
    }
    const now = Date.now();
    for (const entry of reading) {
      const { id, since } = entry.reading!;
      const timeMs = entry.waiting.get(id)?.pool.pageTimeMs ?? READING_LIMITS.pageTimeMs;
      if (!this.stopOverMemory(entry) && now - since > timeMs) this.stopReading(entry, `reading it took over ${timeMs / 1000} s`);
    }
  }

  /** Stops the worker when the process grew past the page's memory limit while it read; whether it did. */
  private stopOverMemory(entry: PoolWorker): boolean {
    const { id, rss: before } = entry.reading!;
    const memoryMb = entry.waiting.get(id)?.pool.limits.pageMemoryMb ?? READING_LIMITS.pageMemoryMb;
    if ((process.memoryUsage.rss() - before) / 2 ** 20 <= memoryMb) return false;
    this.stopReading(entry, `reading it took over ${memoryMb} MB of memory`);
    return true;
  }

  private spawn(): PoolWorker {
    const worker = takeWarmWorker(this.script) ?? startWorker(this.script);
    const entry: PoolWorker = { worker, waiting: new Map(), reading: null, settingsOf: null, stopListening: () => undefined };
    const failAll = (reason: string) => {
      entry.stopListening();
      // A worker that died reading a page (out of heap, say): that page is the one to blame.
      if (entry.reading) {
        this.stopReading(entry, reason);
        return;
      }
      const index = this.workers.indexOf(entry);
      // Waiting pages get a fresh worker.
      if (index >= 0) this.workers.splice(index, 1);
      const failed = [...entry.waiting.values()];
      entry.waiting.clear();
      for (const request of failed) answer(request, { ...unreadablePage(request.pageNumber), error: reason });
      this.dispatch();
    };
    const onMessage = (message: PageWorkerAnswer) => {
      if (message.type === 'reading') {
        entry.reading = { id: message.id, since: Date.now(), rss: process.memoryUsage.rss() };
        if (!this.watch) {
          this.watch = setInterval(() => this.checkReading(), MEMORY_CHECK_MS);
          this.watch.unref();
        }
        return;
      }
      if (message.type === 'read') {
        // Measured once more as it ends: a page read between two checks is held to the limit too.
        if (entry.reading && this.stopOverMemory(entry)) return;
        entry.reading = null;
        return;
      }
      const request = entry.waiting.get(message.id);
      entry.waiting.delete(message.id);
      if (request) answer(request, message.page);
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

function answer(request: PageRequest, page: ProcessedPage): void {
  request.pool.inFlight--;
  request.resolve(page);
  request.pool.settle();
}

/** The shared workers, one group per worker script (one in practice). */
const groups = new Map<string, WorkerGroup>();

function groupFor(script: PageWorkerScript): WorkerGroup {
  let group = groups.get(script.url);
  if (!group) {
    group = new WorkerGroup(script);
    groups.set(script.url, group);
  }
  return group;
}

/** A file's pages, read and analysed by the process's shared page workers (WorkerGroup). */
export class PagePool {
  /** Pages asked for and not sent to a worker yet, in the order asked. */
  readonly queue: { pageNumber: number; resolve: (page: ProcessedPage) => void }[] = [];
  /** Pages sent to a worker and not answered yet. */
  inFlight = 0;
  /** This file's pages stopped at a reading limit. */
  strikes = 0;
  private closed = false;
  private readonly group: WorkerGroup;
  private settled: (() => void) | null = null;

  /**
   * `size`: the workers this file may use (shared with the files read meanwhile); `settings`
   * name the file (a descriptor the caller keeps open until close() is done, or photos on local
   * disk); `script` from
   * pageWorkerScript().
   */
  constructor(
    readonly size: number,
    readonly settings: PageWorkerSettings,
    script: PageWorkerScript,
    readonly limits: ReadingLimits = READING_LIMITS,
  ) {
    this.group = groupFor(script);
    this.group.pools.push(this);
  }

  /**
   * Never rejects: a page whose worker died comes back as an unreadable page, one that went past
   * a reading limit as a page too complex to read. Pages wait here until a worker has room, so a
   * slow page holds up only its own worker: the other one goes on with the pages asked for after it.
   */
  analyse(pageNumber: number): Promise<ProcessedPage> {
    if (this.closed) throw new Error('page pool closed');
    return new Promise((resolve) => {
      this.queue.push({ pageNumber, resolve });
      this.group.dispatch();
    });
  }

  /** Answers the pages still waiting, lets the workers finish this file's pages, and leaves them. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { pageNumber, resolve } of this.queue.splice(0))
      resolve({ ...unreadablePage(pageNumber), error: 'page pool closed' });
    if (this.inFlight > 0) {
      const answered = new Promise<void>((resolve) => (this.settled = resolve));
      const timer = setTimeout(() => void this.group.stopWorkersOf(this), CLOSE_GRACE_MS);
      await answered;
      clearTimeout(timer);
    }
    await this.group.leave(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** How long one of this file's pages may be read: shorter once the file is taken for hostile. */
  get pageTimeMs(): number {
    const { pageTimeMs } = this.limits;
    return this.strikes >= SUSPECT_FILE_STRIKES ? Math.min(pageTimeMs, SUSPECT_PAGE_TIME_MS) : pageTimeMs;
  }

  /** Called as each of this file's pages is answered. */
  settle(): void {
    if (this.inFlight === 0) this.settled?.();
  }
}

export type { AnalyseOptions };

function startWorker({ url, tsx, zxing }: PageWorkerScript): Worker {
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { workerUrl: url, tsxLoader: tsx ? TSX_LOADER : null, zxing },
    // A worker under tsx registers its own TypeScript loader; inherited flags would register a second.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: PAGE_WORKER_HEAP_MB },
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
 * unless `limit` workers of its kind are waiting already.
 */
function keepForNextFile(worker: Worker, script: PageWorkerScript, limit: number): boolean {
  if (warmWorkers.filter((entry) => entry.url === script.url).length >= limit) return false;
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

function findPageWorkerModule(): Promise<Omit<PageWorkerScript, 'zxing'>> {
  return workerModule(WORKER_URL);
}

const workerModules = new Map<string, Promise<{ url: string; tsx: boolean }>>();

/**
 * A worker thread's module, as plain JavaScript when it can be (see PageWorkerScript.url):
 * `sourceUrl` itself in the build, else bundled once per process with esbuild.
 */
export function workerModule(sourceUrl: string): Promise<{ url: string; tsx: boolean }> {
  let found = workerModules.get(sourceUrl);
  if (!found) {
    found = bundleWorkerModule(sourceUrl);
    workerModules.set(sourceUrl, found);
  }
  return found;
}

async function bundleWorkerModule(sourceUrl: string): Promise<{ url: string; tsx: boolean }> {
  const source = fileURLToPath(sourceUrl);
  if (!source.endsWith('.ts')) return { url: sourceUrl, tsx: false };
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
      `${path.basename(source, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
    );
    await mkdir(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, file);
    return { url: pathToFileURL(file).href, tsx: false };
  } catch {
    // A read-only install, say: the TypeScript source still runs, through the loader.
    return { url: sourceUrl, tsx: true };
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
export const TSX_LOADER = pathToFileURL(
  path.join(path.dirname(createRequire(import.meta.url).resolve('tsx')), 'esm', 'api', 'index.mjs'),
).href;

// Plain CommonJS run by the worker before anything is imported: TypeScript support is registered
// when needed (as `tsx` gives this thread), then the worker module is imported.
export const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(workerData.tsxLoader ? import(workerData.tsxLoader).then((tsx) => tsx.register()) : Promise.resolve())
  .then(() => import(workerData.workerUrl))
  .catch((error) => setImmediate(() => { throw error; }));
`;
