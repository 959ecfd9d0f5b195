// Step 2 of the scan pipeline: find the page's code. Codes are printed in the top-right and
// bottom-left corners, so small corner crops are read first (fast); the other two corners catch
// pages scanned a quarter turn; then the whole page; and only pages still failing pay for
// clean-up retries (contrast, threshold, median, blur, half size).
// The code's angle on the scan gives the page's orientation.
import {
  readCodeText,
  type Code,
  type CodePrefix,
  type CodeTextRejection,
  CODE_PREFIXES,
} from '../domain/codes';
import {
  blurGrey,
  doubleGrey,
  halfGrey,
  medianGrey,
  normaliseGrey,
  percentile,
  thresholdGrey,
} from './image-cleanup';
import { cropPaddedGrey, sampledHistogram, type GreyRaster, type Orientation } from './raster';
import { readQrCodes } from './zxing-reader';
import type { ReaderOptions } from 'zxing-wasm/reader';
import type { PageReason } from '../domain/page-reasons';

export type CodeArea = 'top_right' | 'bottom_left' | 'top_left' | 'bottom_right' | 'page';

export interface Point {
  x: number;
  y: number;
}

export interface FoundCode {
  text: string;
  /** The product's code in the text, or null (then `rejection` says why). */
  code: Code | null;
  rejection: CodeTextRejection | null;
  /** The crop it was read in; `page` for the whole page. */
  area: CodeArea;
  /** The symbol's corners in raster pixels (its own top-left, top-right... whatever the page's turn). */
  position: { topLeft: Point; topRight: Point; bottomRight: Point; bottomLeft: Point };
  /** Clockwise angle of the symbol's top edge from horizontal on the scan, in degrees, (-180, 180]. */
  angle: number;
  /** The attempt that read it, e.g. `corners`, `other_corners`, `page`, `cleanup:median`. */
  pass: string;
}

export interface FindCodesResult {
  /** The page's code: the first one read of an expected kind. */
  code: Code | null;
  reason: PageReason | null;
  /** Every readable symbol found (each distinct text once), in the order read. */
  codes: FoundCode[];
  /** How far the page is turned clockwise on the scan; null when no code of ours was read. */
  orientation: Orientation | null;
  /** Remaining tilt in degrees after `orientation` (positive: clockwise). */
  skew: number | null;
  /** The pass that found `code`. */
  pass: string | null;
  /** Number of zxing reads spent (cost indicator). */
  attempts: number;
}

export interface FindCodesOptions {
  /** Code kinds that make sense for this upload; others give `other_kind`. Default: all. */
  expectedPrefixes?: readonly CodePrefix[];
  /** Try clean-up retries on failing pages. Default true. */
  cleanup?: boolean;
  /**
   * Asked once the four corner crops found nothing usable, before the slow passes (whole page,
   * clean-ups): return false to stop there, e.g. because the page turned out blank.
   */
  continueAfterCorners?: () => boolean;
  /** The raster's resolution, when known: some clean-ups only help low-resolution scans. */
  dpi?: number;
}

/**
 * Side of the square corner crops, as a share of the raster's shorter side: on A4 that is 63 mm,
 * room for the code (CODE_STAMP: 18-44 mm from the edges) tilted by 6 degrees about the page's
 * middle (its inner corner then moves up to ~17 mm), and for codes printed before at 12-34 mm.
 */
export const CORNER_CROP_SHARE = 0.3;

/** Side of the corner crops of a page of this size, in pixels. */
export function cornerCropSide(width: number, height: number): number {
  return Math.round(Math.min(width, height) * CORNER_CROP_SHARE);
}

/** One symbol per corner: zxing stops looking as soon as it has it (about half the time). */
const ONE_SYMBOL: ReaderOptions = { maxNumberOfSymbols: 1 };

type Crop = { area: CodeArea; raster: GreyRaster; left: number; top: number; scale: number };

interface Variant {
  name: string;
  transform: (raster: GreyRaster) => GreyRaster;
  /** Pixel scale of the transformed image relative to its input. */
  scale: number;
  reader?: ReaderOptions;
  /** Only tried on scans of a lower resolution than this (see FindCodesOptions.dpi). */
  belowDpi?: number;
}

/** In order of how often each one rescued a page of the harsh test scans. */
const CLEANUPS: Variant[] = [
  { name: 'median', transform: medianGrey, scale: 1 },
  // Small modules (low resolution) blurred by the scan: bigger, then smoothed, they sample
  // cleanly. Costly (four times the pixels), and pointless where modules are big enough.
  { name: 'double_median', transform: (r) => medianGrey(doubleGrey(r)), scale: 2, belowDpi: 200 },
  { name: 'blur', transform: (r) => normaliseGrey(blurGrey(r)), scale: 1 },
  { name: 'denoise', transform: (r) => r, scale: 1, reader: { tryDenoise: true } },
  { name: 'half', transform: halfGrey, scale: 0.5 },
  { name: 'threshold', transform: (r) => thresholdGrey(normaliseGrey(blurGrey(r))), scale: 1 },
  { name: 'median_half', transform: (r) => halfGrey(medianGrey(r)), scale: 0.5 },
  {
    name: 'global_histogram',
    transform: blurGrey,
    scale: 1,
    reader: { binarizer: 'GlobalHistogram' },
  },
];

export async function findCodes(
  raster: GreyRaster,
  options: FindCodesOptions = {},
): Promise<FindCodesResult> {
  const expected = options.expectedPrefixes ?? CODE_PREFIXES;
  const search = new CodeSearch(expected);
  // Crops are cut as they are needed: most pages are done after the first two corners.
  const primary = cornerCrops(raster, ['top_right', 'bottom_left']);

  if (await search.tryCrops('corners', primary, ONE_SYMBOL)) return search.result();
  const secondary = cornerCrops(raster, ['top_left', 'bottom_right']);
  if (await search.tryCrops('other_corners', secondary, ONE_SYMBOL)) return search.result();
  const corners = [...primary, ...secondary];
  if (options.continueAfterCorners && !options.continueAfterCorners()) return search.result();
  if (await search.tryCrops('page', [wholePage(raster)])) return search.result();
  // Pages where something was read are what they are: clean-ups only help pages with nothing usable.
  if (options.cleanup !== false && search.codes.length === 0) {
    for (const variant of CLEANUPS) {
      if (
        variant.belowDpi !== undefined &&
        options.dpi !== undefined &&
        options.dpi >= variant.belowDpi
      )
        continue;
      const crops = corners.map((c) => ({
        ...c,
        raster: variant.transform(c.raster),
        scale: c.scale * variant.scale,
      }));
      if (
        await search.tryCrops(`cleanup:${variant.name}`, crops, {
          ...ONE_SYMBOL,
          ...variant.reader,
        })
      )
        return search.result();
    }
  }
  return search.result();
}

/**
 * The first try for a page that is a scan JPEG placed upright on it, on its top band alone (see
 * scan-page's UprightJpeg): its two top corner crops, read as findCodes reads them. Whichever way
 * the sheet was fed, one of its two codes (top-right and bottom-left on the sheet) lands in a top
 * corner of the scan: top-right when upright or upside down, top-left when a quarter turn round.
 * Returns the result findCodes would return when one of them holds an expected code; null
 * otherwise (then the whole page goes through findCodes).
 */
export async function findCodeInTopBand(
  band: GreyRaster,
  page: { width: number; height: number },
  options: Pick<FindCodesOptions, 'expectedPrefixes'> = {},
): Promise<FindCodesResult | null> {
  const search = new CodeSearch(options.expectedPrefixes ?? CODE_PREFIXES);
  if (!(await search.tryCrops('corners', cornerCrops(band, ['top_right'], page), ONE_SYMBOL)))
    await search.tryCrops('other_corners', cornerCrops(band, ['top_left'], page), ONE_SYMBOL);
  const result = search.result();
  return result.code !== null ? result : null;
}

/**
 * A corner with less ink than this share of its area holds no code: a whole symbol is about a
 * sixth of the crop and half of it is dark, so even a code mostly cut off by the scanner's edge
 * has several times more. Such corners (blank backs, empty corners of turned pages) are not read.
 */
const MIN_CORNER_INK_SHARE = 0.01;
/** How much darker than the paper a pixel must be to count as ink (as blank-page measures it). */
const INK_BELOW_PAPER = 40;

/**
 * Corner crops framed with paper-coloured margins: a code pushed against the edge of the scanned
 * area by a tilted sheet has lost its quiet zone, and zxing needs one to find the symbol.
 * Corners without ink are left out. `raster` may be the page's top band only (`page` then gives
 * the whole page's size) when only the top corners are asked for.
 */
function cornerCrops(
  raster: GreyRaster,
  areas: CodeArea[],
  page: { width: number; height: number } = raster,
): Crop[] {
  const side = cornerCropSide(page.width, page.height);
  const border = Math.max(8, Math.round(side * 0.05));
  const right = page.width - side;
  const bottom = page.height - side;
  const at = (area: CodeArea, left: number, top: number): Crop | null => {
    // Paper's grey, from every third row and column of the corner.
    const { histogram, count } = sampledHistogram(raster, left, top, side, side, 3);
    const paper = percentile(histogram, count, 0.9);
    let ink = 0;
    for (let level = 0; level < paper - INK_BELOW_PAPER; level++) ink += histogram[level]!;
    if (ink < count * MIN_CORNER_INK_SHARE) return null;
    return {
      area,
      raster: cropPaddedGrey(raster, left, top, side, border, paper),
      left: left - border,
      top: top - border,
      scale: 1,
    };
  };
  const origin: Record<CodeArea, [number, number]> = {
    top_right: [right, 0],
    bottom_left: [0, bottom],
    top_left: [0, 0],
    bottom_right: [right, bottom],
    page: [0, 0],
  };
  return areas.map((area) => at(area, ...origin[area])).filter((crop) => crop !== null);
}

/**
 * Pages whose shorter side has more pixels than this are read whole at half size: a code is 26 mm
 * (CODE_STAMP), so an A4 page this size still gives it 6 pixels a module, and zxing's memory
 * (which never shrinks) then only ever holds a quarter of a page.
 */
const WHOLE_PAGE_MAX_SIDE = 1800;

function wholePage(raster: GreyRaster): Crop {
  if (Math.min(raster.width, raster.height) <= WHOLE_PAGE_MAX_SIDE)
    return { area: 'page', raster, left: 0, top: 0, scale: 1 };
  return { area: 'page', raster: halfGrey(raster), left: 0, top: 0, scale: 0.5 };
}

class CodeSearch {
  readonly codes: FoundCode[] = [];
  private chosen: FoundCode | null = null;
  private sawUnreadable = false;
  private attempts = 0;

  constructor(private readonly expected: readonly CodePrefix[]) {}

  /**
   * Reads the crops of one pass in order; true once a usable code is known (the other crops are
   * then not read: the second printed copy would only say the same).
   */
  async tryCrops(pass: string, crops: Crop[], reader?: ReaderOptions): Promise<boolean> {
    for (const crop of crops) {
      if (this.chosen) break;
      this.attempts++;
      const results = await readQrCodes(crop.raster, reader);
      for (const result of results) {
        if (!result.isValid) {
          this.sawUnreadable = true;
          continue;
        }
        // Printed codes are never mirrored: a mirrored one is the other side showing through
        // thin paper (the blank back of a sheet would otherwise get the front's code).
        if (result.isMirrored) continue;
        if (this.codes.some((c) => c.text === result.text)) continue;
        const reading = readCodeText(result.text);
        const toPage = (p: Point): Point => ({
          x: crop.left + p.x / crop.scale,
          y: crop.top + p.y / crop.scale,
        });
        const position = {
          topLeft: toPage(result.position.topLeft),
          topRight: toPage(result.position.topRight),
          bottomRight: toPage(result.position.bottomRight),
          bottomLeft: toPage(result.position.bottomLeft),
        };
        const found: FoundCode = {
          text: result.text,
          code: reading.code,
          rejection: reading.reason,
          area: crop.area,
          position,
          angle: edgeAngle(position.topLeft, position.topRight),
          pass,
        };
        this.codes.push(found);
        if (!this.chosen && found.code && this.expected.includes(found.code.prefix))
          this.chosen = found;
      }
    }
    return this.chosen !== null;
  }

  result(): FindCodesResult {
    const chosen = this.chosen;
    const ours = chosen ?? this.codes.find((c) => c.code) ?? null;
    const orientation = ours ? orientationOf(ours.angle) : null;
    return {
      code: chosen?.code ?? null,
      reason: chosen ? null : this.reason(),
      codes: this.codes,
      orientation,
      skew: ours && orientation !== null ? normaliseAngle(ours.angle - orientation) : null,
      pass: chosen?.pass ?? null,
      attempts: this.attempts,
    };
  }

  private reason(): PageReason {
    if (this.codes.some((c) => c.code)) return 'other_kind';
    if (this.codes.length > 0) return 'unknown_code';
    return this.sawUnreadable ? 'unreadable' : 'no_code_found';
  }
}

/** Clockwise angle (y points down on a raster) of the edge from `a` to `b`, in (-180, 180]. */
function edgeAngle(a: Point, b: Point): number {
  return normaliseAngle((Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI);
}

function normaliseAngle(degrees: number): number {
  let d = degrees % 360;
  if (d <= -180) d += 360;
  if (d > 180) d -= 360;
  return d;
}

/** The printed code stands upright on the page, so its angle is the page's turn. */
export function orientationOf(angle: number): Orientation {
  const quarter = ((Math.round(angle / 90) % 4) + 4) % 4;
  return (quarter * 90) as Orientation;
}
