// Step 3 of the scan pipeline: spot blank pages (the empty backs of duplex scans) so they are kept
// but ignored. A page is blank when, away from its edges, nothing forms a mark bigger than a speck:
// scanner noise averages out at low resolution, specks of dirt are too small, and show-through
// from the other side is too light.
import { percentile } from './image-cleanup';
import { shrinkGrey, type GreyRaster } from './raster';

export interface BlankPageOptions {
  /** Edge band ignored on every side (scanner shadows, punch holes), as a share of the page. */
  edgeShare?: number;
  /** The smallest mark that makes a page not blank: its width or height, in mm. */
  minMarkMm?: number;
}

export interface BlankPageResult {
  blank: boolean;
  /** Marks bigger than a speck: 0 on blank pages; counting stops at the first (one is enough). */
  marks: number;
  /** Width or height of the biggest mark seen, in mm (a speck's size on blank pages). */
  largestMarkMm: number;
  /** Share of the inspected area covered by ink (specks included), counted up to the first mark. */
  inkShare: number;
  /** Paper grey level found (0-255). */
  paper: number;
}

/**
 * Resolution the page is looked at (at least; scans are shrunk by whole factors): a thin pencil
 * line stays dark enough to see, and noise specks stay specks.
 */
const LOOK_DPI = 150;
const MM_PER_INCH = 25.4;

/**
 * detectBlankPage's marks buffer, kept between calls (it runs synchronously, one page at a time
 * per thread): a new page-sized buffer per page is only more garbage to collect.
 */
let seenScratch = new Uint8Array(0);

/**
 * Four pixels at once (the raster as 32-bit words, where its bytes are aligned for that): a word
 * holds a pixel under n exactly when ((~word + bias) | ~word) has a high bit set in some byte,
 * bias = 0x01010101 * (n - 128): the "has a byte greater than 255 - n" bit trick on the inverted
 * pixels, which holds for n of 128 or more. Darker paper (n under 128) is looked at pixel by
 * pixel. `inkBelow` may be fractional: a pixel is under it when under its ceiling.
 */
function paperWordTest(
  data: Uint8Array,
  inkBelow: number,
): { words: Uint32Array; bias: number } | null {
  const n = Math.ceil(inkBelow);
  if (n < 128 || n > 255 || data.byteOffset % 4 !== 0) return null;
  return {
    words: new Uint32Array(data.buffer, data.byteOffset, data.length >> 2),
    bias: 0x01010101 * (n - 128),
  };
}

export function detectBlankPage(
  raster: GreyRaster,
  dpi: number,
  options: BlankPageOptions = {},
): BlankPageResult {
  const edgeShare = options.edgeShare ?? 0.06;
  const minMarkMm = options.minMarkMm ?? 3;
  const factor = Math.max(1, Math.round(dpi / LOOK_DPI));
  const small = shrinkGrey(raster, factor);
  const mmPerPixel = (MM_PER_INCH * factor) / dpi;

  const x0 = Math.floor(small.width * edgeShare);
  const y0 = Math.floor(small.height * edgeShare);
  const x1 = small.width - x0;
  const y1 = small.height - y0;
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return { blank: true, marks: 0, largestMarkMm: 0, inkShare: 0, paper: 255 };

  const area: InspectedArea = { x0, y0, x1, y1 };
  const paper = paperLevel(small, area);
  // Ink is clearly darker than paper (show-through is not); relative so low-contrast scans still
  // count their writing.
  const inkBelow = paper - Math.min(80, Math.max(40, paper * 0.22));

  const minMarkPixels = minMarkMm / mmPerPixel;
  const stride = small.width;
  const data = small.data;
  // Ink pixels already measured as part of a mark (indexes into `small`).
  if (seenScratch.length < data.length) seenScratch = new Uint8Array(data.length);
  const seen = seenScratch;
  seen.fill(0, 0, data.length);
  let inkPixels = 0;
  let marks = 0;
  let largest = 0;
  const paperWords = paperWordTest(data, inkBelow);
  // Flood fill each ink component (8-connected) inside the inspected area and measure its extent.
  const stack: number[] = [];
  scan: for (let y = y0; y < y1; y++) {
    for (let start = y * stride + x0, end = y * stride + x1; start < end; start++) {
      // Most of the page is paper: four pixels at once where they are all paper.
      if (paperWords && (start & 3) === 0 && start + 4 <= end) {
        const inverted = ~paperWords.words[start >> 2]!;
        if ((((inverted + paperWords.bias) | inverted) & 0x80808080) === 0) {
          start += 3;
          continue;
        }
      }
      if (data[start]! >= inkBelow) continue;
      inkPixels++;
      if (seen[start] === 1) continue;
      const extent = markExtent(small, area, inkBelow, seen, stack, start);
      if (extent > largest) largest = extent;
      if (extent >= minMarkPixels) {
        marks++;
        break scan;
      }
    }
  }

  return {
    blank: marks === 0,
    marks,
    largestMarkMm: Math.round(largest * mmPerPixel * 10) / 10,
    inkShare: inkPixels / (w * h),
    paper,
  };
}

/** The part of the shrunk page looked at: the page less its edge band (x1, y1 exclusive). */
interface InspectedArea {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Paper is what most of the page is, even on a page full of writing: every other row and column is plenty to tell. */
function paperLevel(small: GreyRaster, { x0, y0, x1, y1 }: InspectedArea): number {
  const histogram = new Uint32Array(256);
  let sampled = 0;
  for (let y = y0; y < y1; y += 2) {
    const row = y * small.width;
    for (let x = x0; x < x1; x += 2) histogram[small.data[row + x]!]!++;
    sampled += Math.ceil((x1 - x0) / 2);
  }
  return percentile(histogram, sampled, 0.5);
}

/**
 * Flood fills the ink component (8-connected, inside the area) holding pixel `start`, marking its
 * pixels in `seen`, and returns its extent: its width or height in pixels, whichever is larger.
 */
function markExtent(
  small: GreyRaster,
  { x0, y0, x1, y1 }: InspectedArea,
  inkBelow: number,
  seen: Uint8Array,
  stack: number[],
  start: number,
): number {
  const stride = small.width;
  const data = small.data;
  seen[start] = 1;
  stack.push(start);
  let minX = x1,
    maxX = 0,
    minY = y1,
    maxY = 0;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const py = (i / stride) | 0;
    const px = i - py * stride;
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
    for (let ny = py - 1; ny <= py + 1; ny++) {
      if (ny < y0 || ny >= y1) continue;
      for (let nx = px - 1; nx <= px + 1; nx++) {
        if (nx < x0 || nx >= x1) continue;
        const j = ny * stride + nx;
        if (seen[j] === 0 && data[j]! < inkBelow) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
  }
  return Math.max(maxX - minX + 1, maxY - minY + 1);
}
