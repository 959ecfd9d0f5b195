// Reads the text the product prints on a page (header, lesson and page line, short codes) with
// OCR, for pages where no code was read: the paper still says who and what it is when both QR
// codes are under a sticky note or a stain. Only the bands where the product prints are read, the
// header first (a packet page needs nothing more), so a page costs a fraction of a second.
// One tesseract worker per thread (each page worker has its own), made when first needed and
// kept: loading the English model costs more than reading a page. The model comes from the
// @tesseract.js-data/eng package: nothing is ever fetched at run time.
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { createWorker, type Worker } from 'tesseract.js';
import type { Code, CodePrefix } from '../domain/codes';
import { nothingRead, printedFacts, sureText, type PrintedFacts, type ReadWord } from '../domain/printed-facts';
import type { GreyRaster, Orientation } from './raster';

const require = createRequire(import.meta.url);

/** The English model as installed from npm (LSTM only: the smaller, faster of its two models). */
export const ENGLISH_DATA_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** Text is read at this resolution: enough for 9 pt print, and half the work of a 200 dpi scan. */
const READ_DPI = 150;
/**
 * A reader unused this long is closed, so a process reading no codeless pages holds no model. On
 * the main thread (small files, tests, tools) soon: its thread would keep the process alive.
 */
const IDLE_CLOSE_MS = isMainThread ? 3_000 : 300_000;

/**
 * Bands of the upright page where the product prints, in the order they are read. Header: the packet header line (packet-page, 5-11 mm).
 * Sheet head: course, lesson title, page line, the Name field with "(ID 1049)" and the top short
 * code (answer-sheet-master, printed-page: down to the Name line, ~50 mm). Foot: the bottom short
 * code and the "Lesson 2 - page 1 of 2" footer.
 */
const BANDS: readonly Band[] = [
  { name: 'header', edge: 'top', fromMm: 0, toMm: 14 },
  { name: 'sheet_head', edge: 'top', fromMm: 12, toMm: 62 },
  { name: 'foot', edge: 'bottom', fromMm: 0, toMm: 50 },
];

/** Rows of the upright page, in mm from its top or bottom edge. */
interface Band {
  name: string;
  edge: 'top' | 'bottom';
  fromMm: number;
  toMm: number;
}

export interface PrintedTextReading extends PrintedFacts {
  /** The turn of the page the text was read at (its header at the top of the scan: 0). */
  orientation: Orientation;
  /** Every band's text as read, for a person to check (trimmed). */
  text: string;
  /** The short code read with its right check character, when it is of a kind expected here. */
  code: Code | null;
}

let reader: Promise<Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let idle: NodeJS.Timeout | null = null;

function tesseract(): Promise<Worker> {
  if (idle) clearTimeout(idle);
  idle = null;
  reader ??= createWorker('eng', 1, {
    langPath: ENGLISH_DATA_PATH,
    gzip: true,
    // Nothing written beside the process (tesseract.js caches the model in the working folder).
    cacheMethod: 'none',
  }).catch((error: unknown) => {
    reader = null;
    throw error;
  });
  return reader;
}

function closeWhenIdle(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => void closePrintedTextReader(), IDLE_CLOSE_MS);
  idle.unref();
}

/** Whether this thread has an OCR worker (made on its first codeless page, until closed). */
export function hasPrintedTextReader(): boolean {
  return reader !== null;
}

/** Ends this thread's OCR worker, if any (a page worker closing, a test ending). */
export async function closePrintedTextReader(): Promise<void> {
  if (idle) clearTimeout(idle);
  idle = null;
  const current = reader;
  reader = null;
  if (current) await (await current.catch(() => null))?.terminate();
}

/** One OCR job at a time on the thread's worker: tesseract reads one image at once anyway. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * What the page's printed text says, read upright and then (when nothing was read) upside down;
 * null when nothing of use was read either way.
 */
export async function readPrintedText(
  raster: GreyRaster,
  dpi: number,
  expectedPrefixes: readonly CodePrefix[],
): Promise<PrintedTextReading | null> {
  return inTurn(async () => {
    try {
      const worker = await tesseract();
      for (const orientation of [0, 180] as const) {
        const reading = await readAt(worker, raster, dpi, orientation, expectedPrefixes);
        if (reading) return reading;
      }
      return null;
    } finally {
      closeWhenIdle();
    }
  });
}

async function readAt(
  worker: Worker,
  raster: GreyRaster,
  dpi: number,
  orientation: 0 | 180,
  expectedPrefixes: readonly CodePrefix[],
): Promise<PrintedTextReading | null> {
  const lines: string[] = [];
  let facts: PrintedFacts | null = null;
  for (const band of BANDS) {
    const image = bandImage(raster, dpi, band, orientation);
    if (image === null) continue;
    const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
    const words: ReadWord[][] = [];
    for (const block of data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines) words.push(line.words.map((word) => ({ text: word.text, confidence: word.confidence })));
    // Lines of nothing sure (QR modules, handwriting) say nothing to a person either.
    lines.push(...sureText(words).filter((line) => /[A-Za-z0-9]/.test(line)));
    facts = printedFacts(lines);
    // A packet header names student, lesson and page: the rest of the page adds nothing.
    if (facts.student_human_id !== null && facts.lesson_number !== null && facts.page_number !== null) break;
  }
  if (facts === null || nothingRead(facts)) return null;
  const code = facts.conflicting ? null : (facts.codes.find((c) => expectedPrefixes.includes(c.prefix)) ?? null);
  return { ...facts, orientation, text: lines.join('\n').slice(0, 600), code };
}

/** A band of the page as image bytes at READ_DPI, turned upright; null when the page is too small. */
function bandImage(raster: GreyRaster, dpi: number, band: Band, orientation: 0 | 180): Buffer | null {
  const px = dpi / 25.4;
  // Upright rows [top, bottom).
  const fromEdge = (mm: number) => Math.round(band.edge === 'top' ? mm * px : raster.height - mm * px);
  const top = Math.max(0, band.edge === 'top' ? fromEdge(band.fromMm) : fromEdge(band.toMm));
  const bottom = Math.min(raster.height, band.edge === 'top' ? fromEdge(band.toMm) : fromEdge(band.fromMm));
  if (bottom - top < 8) return null;
  // Upside down, the upright band's rows are the scan's rows counted from the other edge.
  const [from, to] = orientation === 0 ? [top, bottom] : [raster.height - bottom, raster.height - top];
  const scale = Math.min(1, READ_DPI / dpi);
  const width = Math.max(1, Math.round(raster.width * scale));
  const height = Math.max(1, Math.round((to - from) * scale));
  const out = new Uint8Array(width * height);
  // Box sampling: every output pixel averages the scan pixels it covers (sharper text than skipping).
  for (let y = 0; y < height; y++) {
    const sy0 = from + Math.floor(y / scale);
    const sy1 = Math.min(to, Math.max(sy0 + 1, from + Math.floor((y + 1) / scale)));
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor(x / scale);
      const sx1 = Math.min(raster.width, Math.max(sx0 + 1, Math.floor((x + 1) / scale)));
      let sum = 0;
      let count = 0;
      for (let sy = sy0; sy < sy1; sy++)
        for (let sx = sx0; sx < sx1; sx++) {
          sum += raster.data[sy * raster.width + sx]!;
          count++;
        }
      const value = Math.round(sum / count);
      if (orientation === 0) out[y * width + x] = value;
      else out[(height - 1 - y) * width + (width - 1 - x)] = value;
    }
  }
  return hasInk(out) ? encodePgm(out, width, height) : null;
}

/**
 * A band with less ink than this share of its pixels holds no printed line (a short code alone
 * is some 0.15% of the foot band): a blank back, or a back with a helper's comment lower down.
 * It is not read: OCR of an empty band still costs.
 */
const MIN_BAND_INK_SHARE = 0.0005;

function hasInk(band: Uint8Array): boolean {
  const counts = new Uint32Array(256);
  for (const value of band) counts[value]!++;
  // The paper's grey: a bright percentile; ink is well below it.
  let seen = 0;
  let paper = 255;
  for (let level = 255; level >= 0; level--) {
    seen += counts[level]!;
    if (seen >= band.length * 0.5) {
      paper = level;
      break;
    }
  }
  let ink = 0;
  for (let level = 0; level < paper * 0.6; level++) ink += counts[level]!;
  return ink >= band.length * MIN_BAND_INK_SHARE;
}

/** A binary PGM: tesseract (leptonica) reads it as is, with no PNG encoding to pay for. */
function encodePgm(data: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  return Buffer.concat([header, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}
