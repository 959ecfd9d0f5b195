// One page of the scan pipeline, from raster to result: read the page (read-page), spot a blank
// back (blank-page), find its code and orientation (find-codes), keep an upright JPEG
// (page-image). Used on the calling thread and in the page workers alike.
import { CODE_PREFIXES, type Code, type CodePrefix } from '../domain/codes';
import { detectBlankPage, type BlankPageResult } from './blank-page';
import type { PageReason } from '../domain/page-reasons';
import { findCodeInTopBand, findCodes, type FoundCode } from './find-codes';
import {
  keepsScanJpeg,
  scanJpegPageImage,
  uprightPageImage,
  type PageImage,
  type PageImageOptions,
} from './page-image';
import { photoReason } from './photo-page';
import type { PageRaster, PhotoFacts, RasterSource } from './raster';
import { readPrintedText, type PrintedTextReading } from './printed-text';
import type { Orientation } from './raster';

import { PageTooLargeError, type ScanPage, type UprightJpeg } from './scan-page';

export interface ProcessedPage {
  /** 1-based. */
  page_number: number;
  code: Code | null;
  /** Why there is no usable code; null when `code` is set. Blank pages say 'no_code_found'. */
  reason: PageReason | null;
  blank: boolean;
  /** How far the page is turned clockwise on the scan; null when no code told it. */
  orientation: Orientation | null;
  /** Residual tilt in degrees, when known. */
  skew: number | null;
  /** Every QR read on the page (including other kinds and strangers' codes). */
  codes: FoundCode[];
  /** The upright page image; null when images are off or the page could not be read. */
  image: PageImage | null;
  source: RasterSource | null;
  dpi: number | null;
  blankness: BlankPageResult | null;
  /** Set when the page could not be processed (then reason is 'unreadable', or 'too_complex'). */
  error: string | null;
  /** Set when only the page image failed (the code results stand). */
  image_error: string | null;
  /** A photographed page: what straightening it found, and the photo as taken. */
  photo?: PhotoFacts;
  /** What OCR read of the page's printed text; only pages where no code was read are read so. */
  printed_text: PrintedTextReading | null;
  /** How `code` was known: from a QR code, or from the short code printed beside it (OCR). */
  identified_by: 'code' | 'printed_text' | null;
}

/** What a page's analysis needs to know of the processing options. */
export interface AnalyseOptions {
  expectedPrefixes?: readonly CodePrefix[];
  pageImage?: PageImageOptions | false;
  /** Read the printed text of pages where no code was read (printed-text). Default true. */
  printedText?: boolean;
}

/** A page that could not be processed; `error` says why once set. */
export function unreadablePage(pageNumber: number): ProcessedPage {
  return {
    page_number: pageNumber,
    code: null,
    reason: 'unreadable',
    blank: false,
    orientation: null,
    skew: null,
    codes: [],
    image: null,
    source: null,
    dpi: null,
    blankness: null,
    error: null,
    image_error: null,
    printed_text: null,
    identified_by: null,
  };
}

/**
 * A page not read because reading it went past a limit (page-pool): kept, flagged for a person,
 * and the file goes on. `detail` says which limit.
 */
export function tooComplexPage(pageNumber: number, detail: string): ProcessedPage {
  return { ...unreadablePage(pageNumber), reason: 'too_complex', error: `too large or too complex to read: ${detail}` };
}

export async function analysePage(
  pageNumber: number,
  loading: Promise<ScanPage>,
  options: AnalyseOptions,
): Promise<{ finish: Promise<ProcessedPage> }> {
  const empty = unreadablePage(pageNumber);
  let raster: PageRaster;
  let page: ProcessedPage;
  try {
    const scan = await loading;
    // Most pages are scan JPEGs with a code in a top corner, whichever way the sheet was fed: done
    // without decoding the rest (the page image is then the JPEG as it came).
    if (scan.jpeg && (options.pageImage === false || keepsScanJpeg(scan.jpeg, options.pageImage))) {
      const done = await readInTopBand(pageNumber, scan.jpeg, options);
      if (done) return { finish: Promise.resolve(done) };
    }
    raster = await scan.raster();
    const pageRaster = raster;
    page = { ...empty, source: raster.source, dpi: Math.round(raster.dpi) };
    // Blank detection only runs when the corners hold no code (a page with a code is no blank
    // back), and a blank page skips the slow whole-page and clean-up passes.
    let blankness: BlankPageResult | null = null;
    const found = await findCodes(raster, {
      ...(options.expectedPrefixes ? { expectedPrefixes: options.expectedPrefixes } : {}),
      dpi: raster.dpi,
      continueAfterCorners: () => {
        blankness = detectBlankPage(pageRaster, pageRaster.dpi);
        return !blankness.blank;
      },
    });
    const blank = (blankness as BlankPageResult | null)?.blank === true && found.codes.length === 0;
    page.blankness = blankness;
    page.blank = blank;
    page.code = found.code;
    page.reason = blank ? 'no_code_found' : found.reason;
    page.orientation = found.orientation;
    page.skew = tenthOfDegree(found.skew);
    page.codes = found.codes;
    page.identified_by = found.code ? 'code' : null;
    // Only pages where nothing of ours was read: a code of another kind or a stranger's QR says
    // what the page is (not ours to place), and a page with its code costs nothing more.
    const codeless = found.reason === 'no_code_found' || found.reason === 'unreadable';
    if (!blank && codeless && options.printedText !== false) await readPrintedTextOf(page, raster, options);
    if (raster.photo) applyPhotoFacts(page, raster.photo);
  } catch (error) {
    if (error instanceof PageTooLargeError) return { finish: Promise.resolve(tooComplexPage(pageNumber, error.message)) };
    return { finish: Promise.resolve({ ...empty, error: describe(error) }) };
  }
  if (options.pageImage === false) return { finish: Promise.resolve(page) };
  const imageOptions = options.pageImage ?? {};
  const finish = uprightPageImage(raster, page.orientation, imageOptions).then(
    (image) => ({ ...page, image }),
    // A page whose image cannot be encoded still has its code; it just has no picture.
    (error: unknown) => ({ ...page, image_error: describe(error) }),
  );
  return { finish };
}

/**
 * The page when its code reads in the top band of its JPEG; null otherwise, also when the
 * band does not decode (the whole page is then tried, and keeps its own error if any).
 */
async function readInTopBand(
  pageNumber: number,
  jpeg: UprightJpeg,
  options: AnalyseOptions,
): Promise<ProcessedPage | null> {
  const band = await jpeg.top.catch(() => null);
  if (band === null) return null;
  const found = await findCodeInTopBand(band, jpeg, {
    ...(options.expectedPrefixes ? { expectedPrefixes: options.expectedPrefixes } : {}),
  });
  if (!found) return null;
  return {
    ...unreadablePage(pageNumber),
    code: found.code,
    reason: null,
    orientation: found.orientation,
    skew: tenthOfDegree(found.skew),
    codes: found.codes,
    identified_by: 'code',
    image:
      options.pageImage === false ? null : scanJpegPageImage(jpeg.bytes, jpeg, found.orientation),
    source: 'embedded_image',
    dpi: Math.round(jpeg.dpi),
  };
}

/**
 * A photo on which nothing read says why when it can: no sheet in it, or too blurred (blank paper
 * has no edges to be sharp: a blank back stays one). A photo without a sheet is no blank back.
 */
function applyPhotoFacts(page: ProcessedPage, facts: PhotoFacts): void {
  page.photo = facts;
  // A code read, from a QR code or the printed text, says what the page is.
  if (page.codes.length > 0 || page.code !== null) return;
  const reason = photoReason(facts);
  if (reason === null || (reason === 'too_blurred' && page.blank)) return;
  page.reason = reason;
  page.blank = false;
}

/**
 * A page with no code read: OCR over its printed text. A short code read with its right check
 * character is the page's code (and its reading tells the page's turn); any other fact read is
 * only kept, for the file's own rules to confirm against its sheets (printed-identity).
 */
async function readPrintedTextOf(page: ProcessedPage, raster: PageRaster, options: AnalyseOptions): Promise<void> {
  const reading = await readPrintedText(raster, raster.dpi, options.expectedPrefixes ?? CODE_PREFIXES).catch(() => null);
  page.printed_text = reading;
  if (reading === null) return;
  if (page.orientation === null) page.orientation = reading.orientation;
  if (reading.code === null) return;
  page.code = reading.code;
  page.reason = null;
  page.identified_by = 'printed_text';
}

/** Skew as kept on a page: to a tenth of a degree. */
function tenthOfDegree(skew: number | null): number | null {
  return skew === null ? null : Math.round(skew * 10) / 10;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
