// Step 3 of the scan pipeline: spot blank pages (the empty backs of duplex scans) so they are kept
// but ignored. A page is blank when, away from its edges, nothing forms a mark bigger than a speck:
// scanner noise averages out at low resolution, specks of dirt are too small, and show-through
// from the other side is too light.
import { percentile, greyHistogram } from './image-cleanup';
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
  /** Share of the inspected area covered by ink (specks included). */
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

  const inner: GreyRaster = { width: w, height: h, data: new Uint8Array(w * h) };
  for (let y = 0; y < h; y++)
    inner.data.set(
      small.data.subarray((y0 + y) * small.width + x0, (y0 + y) * small.width + x1),
      y * w,
    );

  // Paper is what most of the page is, even on a page full of writing.
  const paper = percentile(greyHistogram(inner), w * h, 0.5);
  // Ink is clearly darker than paper (show-through is not); relative so low-contrast scans still
  // count their writing.
  const inkBelow = paper - Math.min(80, Math.max(40, paper * 0.22));

  const ink = new Uint8Array(w * h);
  let inkPixels = 0;
  for (let i = 0; i < ink.length; i++) {
    if (inner.data[i]! < inkBelow) {
      ink[i] = 1;
      inkPixels++;
    }
  }

  const minMarkPixels = minMarkMm / mmPerPixel;
  let marks = 0;
  let largest = 0;
  // Flood fill each ink component (8-connected) and measure its extent.
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (ink[start] !== 1) continue;
    ink[start] = 2;
    stack.push(start);
    let minX = w,
      maxX = 0,
      minY = h,
      maxY = 0;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= w) continue;
          const j = ny * w + nx;
          if (ink[j] === 1) {
            ink[j] = 2;
            stack.push(j);
          }
        }
      }
    }
    const extent = Math.max(maxX - minX + 1, maxY - minY + 1);
    if (extent > largest) largest = extent;
    if (extent >= minMarkPixels) {
      marks++;
      break;
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
