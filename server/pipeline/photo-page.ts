// A photo of a page becomes a page like a scanned one: decoded (sharp; HEIC through heic-decode,
// which sharp's prebuilt libvips cannot read), the sheet found on its background (find-sheet),
// warped flat to the paper's size (A4 or US Letter, by its proportions), its light evened out
// (divided by the paper's own brightness, so a shadow across it goes), and handed on as a page
// raster: codes, blank detection and the page image then treat it exactly as a scan. Turning it
// upright is find-codes' job, as for a scan fed sideways. Runs on a page worker.
import sharp from 'sharp';
import { findSheet, FIND_SHEET_SIDE, type Point, type SheetCorners } from './find-sheet';
import type { PhotoReason } from '../domain/page-reasons';
import type { GreyRaster, PageRaster, PhotoFacts } from './raster';

export type PhotoMediaType = 'image/jpeg' | 'image/png' | 'image/heic';

/**
 * Whether this build of sharp (libvips + libheif) reads HEIC: the prebuilt one reads AVIF only
 * (no HEVC decoder), so HEIC goes through heic-decode unless a build with HEVC is installed.
 */
export const SHARP_READS_HEIC = sharp.format.heif.input.fileSuffix?.includes('.heic') === true;

/** Resolution of a straightened page: plenty for codes, as the scans' 150-300 dpi. */
export const PHOTO_PAGE_DPI = 200;
/** Pixels a photo may have (a 48 MP phone photo is 8064 x 6048). */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** Longest side of the photo as taken kept for Review. */
export const AS_TAKEN_SIDE = 2000;
/**
 * Below this sharpness a page whose code does not read is called too blurred (bench/photo-pages:
 * the slight blur of a hand-held phone photo measures well above, a photo out of focus below).
 */
export const MIN_SHARPNESS = 6;

/** A4 is 1.414 long to short, US Letter 1.294: a sheet between them is the nearer one. */
const PAPER_SIZES_MM = [
  { name: 'A4', short: 210, long: 297 },
  { name: 'Letter', short: 215.9, long: 279.4 },
] as const;

/** The photo's own reason for a page on which no code read: no sheet in it, or too blurred. */
export function photoReason(facts: PhotoFacts): PhotoReason | null {
  if (!facts.sheetFound) return 'no_sheet';
  return facts.sharpness < MIN_SHARPNESS ? 'too_blurred' : null;
}

/** The straightened page of a photo and what was learnt of it. */
export async function photoPage(bytes: Uint8Array, mediaType: PhotoMediaType): Promise<PageRaster> {
  const photo = await decodePhoto(bytes, mediaType);
  const asTaken = await asTakenJpeg(bytes, mediaType, photo);
  const small = await scaledDown(photo, FIND_SHEET_SIDE);
  const corners = findSheet(small.raster);
  const page =
    corners === null
      ? wholePhoto(photo)
      : straightened(photo, corners.map((p) => scalePoint(p, small.scale)) as SheetCorners);
  evenLight(page);
  return {
    ...page,
    dpi: PHOTO_PAGE_DPI,
    source: 'photo',
    photo: { sheetFound: corners !== null, sharpness: sharpnessOf(page), asTaken },
  };
}

interface DecodedPhoto extends GreyRaster {
  /** HEIC pixels as RGBA, kept for the photo as taken (sharp cannot read HEIC). */
  rgba?: Uint8Array;
}

/** The photo's pixels as grey, as stored (EXIF orientation does not matter to find the sheet). */
async function decodePhoto(bytes: Uint8Array, mediaType: PhotoMediaType): Promise<DecodedPhoto> {
  if (mediaType === 'image/heic' && !SHARP_READS_HEIC) {
    const { default: decode } = await import('heic-decode');
    const image = await decode({ buffer: bytes });
    if (image.width * image.height > MAX_PHOTO_PIXELS)
      throw new Error(`photo of ${image.width} x ${image.height} pixels is too large`);
    const rgba = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    const grey = new Uint8Array(image.width * image.height);
    for (let i = 0, j = 0; i < grey.length; i++, j += 4)
      grey[i] = (rgba[j]! * 77 + rgba[j + 1]! * 150 + rgba[j + 2]! * 29) >> 8;
    return { width: image.width, height: image.height, data: grey, rgba };
  }
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { data, info } = await sharp(input, { failOn: 'none', limitInputPixels: MAX_PHOTO_PIXELS })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1)
    throw new Error(`unexpected photo decode with ${info.channels} channels`);
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/** The photo as the phone showed it (EXIF orientation applied), at most AS_TAKEN_SIDE px. */
async function asTakenJpeg(
  bytes: Uint8Array,
  mediaType: PhotoMediaType,
  photo: DecodedPhoto,
): Promise<Uint8Array> {
  const image =
    mediaType === 'image/heic' && photo.rgba
      ? sharp(Buffer.from(photo.rgba.buffer, photo.rgba.byteOffset, photo.rgba.byteLength), {
          raw: { width: photo.width, height: photo.height, channels: 4 },
        })
      : sharp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
          failOn: 'none',
          limitInputPixels: MAX_PHOTO_PIXELS,
        }).rotate();
  const data = await image
    .resize({
      width: AS_TAKEN_SIDE,
      height: AS_TAKEN_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .removeAlpha()
    .jpeg({ quality: 75 })
    .toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The photo scaled to fit `side`, lightly blurred (paper grain and text fade, edges stay). */
async function scaledDown(
  photo: GreyRaster,
  side: number,
): Promise<{ raster: GreyRaster; scale: number }> {
  const { data, info } = await sharp(
    Buffer.from(photo.data.buffer, photo.data.byteOffset, photo.data.byteLength),
    {
      raw: { width: photo.width, height: photo.height, channels: 1 },
    },
  )
    .resize({ width: side, height: side, fit: 'inside' })
    .blur(1.2)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    raster: {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    },
    scale: photo.width / info.width,
  };
}

function scalePoint(p: Point, scale: number): Point {
  return { x: p.x * scale, y: p.y * scale };
}

/**
 * The sheet warped flat, portrait: its longer sides become the page's height. Which end is the
 * top (0 or 180 degrees) is left to the codes, as for a scan.
 */
export function straightened(photo: GreyRaster, corners: SheetCorners): GreyRaster {
  const [a, b, c, d] = corners;
  const across = (dist(a, b) + dist(d, c)) / 2;
  const down = (dist(a, d) + dist(b, c)) / 2;
  // Portrait: the first corner is the top-left of the page as it lies with its long side down.
  const quad: SheetCorners = down >= across ? [a, b, c, d] : [d, a, b, c];
  const ratio = Math.max(across, down) / Math.min(across, down);
  const paper = PAPER_SIZES_MM.reduce((best, size) =>
    Math.abs(size.long / size.short - ratio) < Math.abs(best.long / best.short - ratio)
      ? size
      : best,
  );
  const width = Math.round((paper.short / 25.4) * PHOTO_PAGE_DPI);
  const height = Math.round((paper.long / 25.4) * PHOTO_PAGE_DPI);
  const h = homography(
    [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ],
    quad,
  );
  const out = new Uint8Array(width * height);
  const src = photo.data;
  const sw = photo.width;
  const sh = photo.height;
  for (let y = 0; y < height; y++) {
    const yc = y + 0.5;
    for (let x = 0; x < width; x++) {
      const xc = x + 0.5;
      const z = h[6]! * xc + h[7]! * yc + 1;
      const u = (h[0]! * xc + h[1]! * yc + h[2]!) / z - 0.5;
      const v = (h[3]! * xc + h[4]! * yc + h[5]!) / z - 0.5;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      if (x0 < 0 || y0 < 0 || x0 >= sw - 1 || y0 >= sh - 1) {
        out[y * width + x] = 255;
        continue;
      }
      const fx = u - x0;
      const fy = v - y0;
      const i = y0 * sw + x0;
      const top = src[i]! + (src[i + 1]! - src[i]!) * fx;
      const bottom = src[i + sw]! + (src[i + sw + 1]! - src[i + sw]!) * fx;
      out[y * width + x] = top + (bottom - top) * fy;
    }
  }
  return { width, height, data: out };
}

/** No sheet found: the whole photo, scaled to a page's size, so a code on it may still read. */
function wholePhoto(photo: GreyRaster): GreyRaster {
  const long = Math.round((297 / 25.4) * PHOTO_PAGE_DPI);
  const scale = Math.min(1, long / Math.max(photo.width, photo.height));
  if (scale === 1) return { width: photo.width, height: photo.height, data: photo.data.slice() };
  const corners: SheetCorners = [
    { x: 0, y: 0 },
    { x: photo.width, y: 0 },
    { x: photo.width, y: photo.height },
    { x: 0, y: photo.height },
  ];
  const width = Math.round(photo.width * scale);
  const height = Math.round(photo.height * scale);
  const h = homography(
    [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ],
    corners,
  );
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const u = Math.min(photo.width - 1, Math.floor(h[0]! * (x + 0.5) + h[2]!));
      const v = Math.min(photo.height - 1, Math.floor(h[4]! * (y + 0.5) + h[5]!));
      out[y * width + x] = photo.data[v * photo.width + u]!;
    }
  return { width, height, data: out };
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/**
 * The projective map taking `from` (four points) to `to`, as the 8 coefficients of a 3x3 matrix
 * whose last entry is 1: x' = (h0 x + h1 y + h2) / (h6 x + h7 y + 1), y' likewise with h3..h5.
 */
export function homography(from: readonly Point[], to: readonly Point[]): number[] {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8 x 9 system.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++)
      if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const p = rows[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('the sheet corners are degenerate');
    for (let k = col; k < 9; k++) rows[col]![k]! /= p;
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r]![col]!;
      if (f === 0) continue;
      for (let k = col; k < 9; k++) rows[r]![k]! -= f * rows[col]![k]!;
    }
  }
  return rows.map((row) => row[8]!);
}

/** Block side (page pixels) of the paper-brightness estimate: larger than print, smaller than a shadow. */
const LIGHT_BLOCK = 24;

/**
 * Evens out the light: each pixel divided by the paper's brightness around it (the brightest
 * values of its neighbourhood: print is dark and thin, so the paper shows around it), so a shadow
 * or a dim corner becomes white paper again and print keeps its contrast. In place.
 */
export function evenLight(page: GreyRaster): void {
  const { width, height, data } = page;
  const bw = Math.ceil(width / LIGHT_BLOCK);
  const bh = Math.ceil(height / LIGHT_BLOCK);
  // Each block's bright level: its 90th percentile.
  const blocks = new Float32Array(bw * bh);
  const histogram = new Uint32Array(256);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      histogram.fill(0);
      const x0 = bx * LIGHT_BLOCK;
      const y0 = by * LIGHT_BLOCK;
      const x1 = Math.min(width, x0 + LIGHT_BLOCK);
      const y1 = Math.min(height, y0 + LIGHT_BLOCK);
      for (let y = y0; y < y1; y += 2)
        for (let x = x0; x < x1; x += 2) histogram[data[y * width + x]!]!++;
      const n = Math.ceil((x1 - x0) / 2) * Math.ceil((y1 - y0) / 2);
      let level = 255;
      for (let count = 0; level > 0; level--) {
        count += histogram[level]!;
        if (count >= n * 0.1) break;
      }
      blocks[by * bw + bx] = level;
    }
  }
  // Blocks covered by print (a QR code, a filled box) take their neighbours' brighter level.
  const lifted = new Float32Array(blocks.length);
  const R = 2;
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let max = 0;
      for (let dy = -R; dy <= R; dy++)
        for (let dx = -R; dx <= R; dx++) {
          const x = bx + dx;
          const y = by + dy;
          if (x >= 0 && y >= 0 && x < bw && y < bh) max = Math.max(max, blocks[y * bw + x]!);
        }
      lifted[by * bw + bx] = max;
    }
  // Smoothed, so block edges leave no steps.
  const smooth = new Float32Array(blocks.length);
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let sum = 0;
      let n = 0;
      for (let dy = -R; dy <= R; dy++)
        for (let dx = -R; dx <= R; dx++) {
          const x = bx + dx;
          const y = by + dy;
          if (x >= 0 && y >= 0 && x < bw && y < bh) {
            sum += lifted[y * bw + x]!;
            n++;
          }
        }
      smooth[by * bw + bx] = Math.max(24, sum / n);
    }
  // Bilinear between block centres; paper comes out at 245, as on a scan.
  for (let y = 0; y < height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / LIGHT_BLOCK - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(bh - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / LIGHT_BLOCK - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(bw - 1, x0 + 1);
      const tx = fx - x0;
      const top = smooth[y0 * bw + x0]! + (smooth[y0 * bw + x1]! - smooth[y0 * bw + x0]!) * tx;
      const bottom = smooth[y1 * bw + x0]! + (smooth[y1 * bw + x1]! - smooth[y1 * bw + x0]!) * tx;
      const light = top + (bottom - top) * ty;
      const i = y * width + x;
      data[i] = Math.min(255, (data[i]! * 245) / light);
    }
  }
}

/**
 * How sharp the page is: the mean of the strongest 1% of horizontal and vertical differences
 * between pixels two apart. Print on a sharp photo has steps of 100 and more; blur spreads them.
 */
export function sharpnessOf(page: GreyRaster): number {
  const { width, height, data } = page;
  const histogram = new Uint32Array(256);
  let n = 0;
  for (let y = 2; y < height - 2; y += 2) {
    for (let x = 2; x < width - 2; x += 2) {
      const i = y * width + x;
      const g = Math.max(
        Math.abs(data[i + 1]! - data[i - 1]!),
        Math.abs(data[i + width]! - data[i - width]!),
      );
      histogram[g]!++;
      n++;
    }
  }
  let count = 0;
  let sum = 0;
  for (let g = 255; g > 0 && count < n * 0.01; g--) {
    count += histogram[g]!;
    sum += g * histogram[g]!;
  }
  return count === 0 ? 0 : sum / count / 10;
}
