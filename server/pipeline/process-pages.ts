// The scan pipeline over a whole file, page by page: read the page (read-page), spot blank backs
// (blank-page), find its code and orientation (find-codes), keep an upright JPEG (page-image).
// Each page is handed to `onPage` as soon as it is done, in page order, so a job can store it
// idempotently and resume with `startAtPage` after a crash. One bad page never fails the file.
import { analysePage, type ProcessedPage } from './analyse-page';
import type { CodePrefix } from '../domain/codes';
import type { PageImageOptions } from './page-image';
import * as fs from 'node:fs';
import { PagePool, pageWorkerScript, type ReadingLimits } from './page-pool';
import { openPhotoPages, type PhotoOfPage } from './photo-pages';
import { openScanPdf, type ScanPdf } from './read-page';
import type { ScanPage } from './scan-page';

export type { ProcessedPage } from './analyse-page';

export interface ProcessProgress {
  /** Pages done, counting those before `startAtPage`. */
  completed: number;
  count: number;
  /** Pages that could not be processed at all (errors), not pages without a code. */
  failed: number;
}

export interface ProcessPagesOptions {
  /** 1-based page to start at (resume); earlier pages are skipped and counted as completed. */
  startAtPage?: number;
  /** Code kinds this upload expects; others are reported as 'other_kind'. Default: all. */
  expectedPrefixes?: readonly CodePrefix[];
  /** Page image settings, or false for none. Default: upright JPEG, MAX_KEPT_SCAN_SIDE px max, quality 80. */
  pageImage?: PageImageOptions | false;
  /** Keep colour in page images of colour scans. Default false (grey). */
  colour?: boolean;
  /** Called once per page, in order, awaited before the next page is handed over. */
  onPage?: (page: ProcessedPage) => void | Promise<void>;
  /** Called at the start and after every page. */
  onProgress?: (progress: ProcessProgress) => void | Promise<void>;
  signal?: AbortSignal;
  /**
   * Worker threads that read and analyse pages while this thread hands them over (and stores
   * them): the process's, shared with the files read meanwhile (page-pool), each page's reading
   * held to its limits. Default: 1 (DEFAULT_PAGE_WORKERS); 0 reads and analyses on this thread,
   * with no limits (tools and tests only: a hostile page then holds this thread).
   */
  workers?: number;
  /** The limits of one page's reading in a worker; default READING_LIMITS. */
  readingLimits?: ReadingLimits;
}

/**
 * Pages asked of the pool, per worker, ahead of the one being handed over. The pool gives each
 * worker PAGES_AT_ONCE_PER_WORKER at a time; the rest let a worker go on past a slow page on the
 * other (their results wait here, in order: an image each).
 */
const PAGES_AHEAD_PER_WORKER = 6;

export interface ProcessPagesResult {
  count: number;
  failed: number;
  /**
   * The pages processed in this run (from `startAtPage`); empty when `onPage` is given: those
   * pages are the caller's, and keeping them here too would grow with the file.
   */
  pages: ProcessedPage[];
}

/** Photos of pages, in the order taken, as a file's pages (photo-pages). */
export interface PhotosSource {
  photos: PhotoOfPage[];
}

/** Photo files read at once are named by negative keys, apart from PDFs' descriptors. */
let lastPhotosKey = 0;

/**
 * `source`: a PDF's path, or photos of pages; either is read by the page workers. Throws
 * UnreadablePdfError when the file is not a readable PDF; rethrows what `onPage` or `onProgress`
 * throw, and the signal's abort reason. Page errors never throw.
 */
export async function processPages(
  source: string | PhotosSource,
  options: ProcessPagesOptions = {},
): Promise<ProcessPagesResult> {
  const path = typeof source === 'string' ? source : null;
  const pdf = path === null ? openPhotoPages((source as PhotosSource).photos) : openScanPdf(path);
  try {
    const count = pdf.pageCount;
    const start = Math.max(1, Math.floor(options.startAtPage ?? 1));
    const tally: Tally = { count, completed: Math.min(count, start - 1), failed: 0, pages: [] };
    await options.onProgress?.({ completed: tally.completed, count, failed: tally.failed });

    const workers = pageWorkerCount(options.workers);
    if (workers > 0) {
      // Only its page count was wanted here: the workers open the file themselves.
      pdf.close();
      await processInWorkers(source, workers, start, tally, options);
    } else await processOnThisThread(pdf, start, tally, options);
    return { count, failed: tally.failed, pages: tally.pages };
  } finally {
    pdf.close();
  }
}

/** The file's pages handed over so far. */
interface Tally {
  count: number;
  completed: number;
  failed: number;
  /** Kept only when no `onPage` takes them. */
  pages: ProcessedPage[];
}

/** Hands one page to the caller, in order, and reports the progress made. */
async function handOver(page: ProcessedPage, tally: Tally, options: ProcessPagesOptions): Promise<void> {
  // Nothing is handed over once the caller has given up (e.g. lost its lease).
  options.signal?.throwIfAborted();
  if (page.error) tally.failed++;
  if (!options.onPage) tally.pages.push(page);
  await options.onPage?.(page);
  tally.completed++;
  await options.onProgress?.({ completed: tally.completed, count: tally.count, failed: tally.failed });
}

/** Pages read and analysed by the process's page workers, asked for ahead of their turn. */
async function processInWorkers(
  source: string | PhotosSource,
  workers: number,
  start: number,
  tally: Tally,
  options: ProcessPagesOptions,
): Promise<void> {
  // The workers read a PDF through a descriptor of this thread's: it stays open if one is stopped.
  const fd = typeof source === 'string' ? fs.openSync(source, 'r') : null;
  const pool = new PagePool(
    workers,
    {
      fileKey: fd ?? --lastPhotosKey,
      source: fd === null ? { photos: (source as PhotosSource).photos } : { fd },
      colour: !!options.colour,
      options: {
        ...(options.expectedPrefixes
          ? { expectedPrefixes: [...options.expectedPrefixes] }
          : {}),
        ...(options.pageImage !== undefined ? { pageImage: options.pageImage } : {}),
      },
    },
    await pageWorkerScript(),
    options.readingLimits,
  );
  try {
    const analysed = new Map<number, Promise<ProcessedPage>>();
    let sent = start - 1;
    for (let pageNumber = start; pageNumber <= tally.count; pageNumber++) {
      options.signal?.throwIfAborted();
      while (sent < tally.count && sent < pageNumber + workers * PAGES_AHEAD_PER_WORKER - 1) {
        sent++;
        analysed.set(sent, pool.analyse(sent));
      }
      const page = await analysed.get(pageNumber)!;
      analysed.delete(pageNumber);
      await handOver(page, tally, options);
    }
  } finally {
    await pool.close();
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Pages read and analysed on this thread, three in flight: page n+1 is decoding (sharp, off this
 * thread) while page n is searched here, and page n-1's JPEG is encoding. Pages are still handed
 * over in order.
 */
async function processOnThisThread(pdf: ScanPdf, start: number, tally: Tally, options: ProcessPagesOptions): Promise<void> {
  const colour = !!options.colour;
  const count = tally.count;
  const read = (n: number): Promise<ScanPage> => {
    // Errors are per page: they surface when the page's turn comes (analysePage).
    const reading = pdf.loadPage(n, { colour });
    reading.catch(() => undefined);
    return reading;
  };
  let next = start <= count ? read(start) : null;
  let handingOver: Promise<void> = Promise.resolve();
  try {
    for (let pageNumber = start; pageNumber <= count; pageNumber++) {
      options.signal?.throwIfAborted();
      const current = next!;
      next = pageNumber < count ? read(pageNumber + 1) : null;
      const { finish } = await analysePage(pageNumber, current, options);
      await handingOver;
      handingOver = finish.then((page) => handOver(page, tally, options));
      // Marks the rejection as handled until the next turn awaits it (and rethrows).
      handingOver.catch(() => undefined);
    }
    await handingOver;
  } catch (error) {
    // No callback may run after processPages has settled.
    await handingOver.catch(() => undefined);
    throw error;
  }
}

/**
 * One page worker unless PIPELINE_THREADS says otherwise: a worker's page rasters come from
 * sharp on libuv's threads, and each thread's malloc arena keeps what those rasters took until V8
 * collects them, so a second worker cost the embedded server some 80 MB at its peak (bench) for
 * little speed on two shared cores; the job thread stores meanwhile.
 */
export const DEFAULT_PAGE_WORKERS = 1;

/** The page workers a file is read with: `configured` (PIPELINE_THREADS), else DEFAULT_PAGE_WORKERS. */
export function pageWorkerCount(configured?: number): number {
  return Math.max(0, Math.floor(configured ?? DEFAULT_PAGE_WORKERS));
}
