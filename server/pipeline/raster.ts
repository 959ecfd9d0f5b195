// The in-memory page image every pipeline step works on: 8-bit grey, one byte per pixel, rows
// top to bottom without padding. Grey is all code finding and blank detection need, and it is a
// third of the memory of RGB.

export interface GreyRaster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** What the pipeline learnt of a photo besides its page raster. */
export interface PhotoFacts {
  /** The sheet's corners were found; false: the page raster is the whole photo. */
  sheetFound: boolean;
  /** Sharpness of the straightened page (mean gradient at edges); low: too blurred to read. */
  sharpness: number;
  /** The photo as taken, shown as the phone held it, for a reviewer to compare (JPEG). */
  asTaken: Uint8Array;
}

export type RasterSource = 'embedded_image' | 'rendered' | 'photo';

export interface PageRaster extends GreyRaster {
  /** Pixels per inch of the raster relative to the PDF page size. */
  dpi: number;
  source: RasterSource;
  /** RGB pixels (3 bytes each) when colour was asked for and the page has colour. */
  rgb?: Uint8Array;
  /**
   * The scan's own JPEG bytes when the page is exactly that JPEG, unturned (grey or RGB): it can
   * be kept as the page image without decoding and encoding again.
   */
  jpeg?: Uint8Array;
  /** A photographed page (source 'photo'): what straightening it found. */
  photo?: PhotoFacts;
}

export type Orientation = 0 | 90 | 180 | 270;

export function cropGrey(
  raster: GreyRaster,
  left: number,
  top: number,
  width: number,
  height: number,
): GreyRaster {
  const x0 = clamp(Math.round(left), 0, raster.width);
  const y0 = clamp(Math.round(top), 0, raster.height);
  const w = clamp(Math.round(width), 0, raster.width - x0);
  const h = clamp(Math.round(height), 0, raster.height - y0);
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const from = (y0 + y) * raster.width + x0;
    data.set(raster.data.subarray(from, from + w), y * w);
  }
  return { width: w, height: h, data };
}

/**
 * A crop framed in one copy: a `side`-pixel square at (left, top) framed with a
 * `border` of grey `value` (parts outside the raster are `value` too).
 */
export function cropPaddedGrey(
  raster: GreyRaster,
  left: number,
  top: number,
  side: number,
  border: number,
  value: number,
): GreyRaster {
  const size = side + 2 * border;
  const data = new Uint8Array(size * size).fill(value);
  const x0 = clamp(left, 0, raster.width);
  const x1 = clamp(left + side, 0, raster.width);
  for (let y = Math.max(0, top); y < Math.min(top + side, raster.height); y++) {
    const from = y * raster.width;
    data.set(
      raster.data.subarray(from + x0, from + x1),
      (y - top + border) * size + border + (x0 - left),
    );
  }
  return { width: size, height: size, data };
}

/** Histogram of a rectangle of the raster, every `step`-th row and column; returns it with the pixels counted. */
export function sampledHistogram(
  raster: GreyRaster,
  left: number,
  top: number,
  width: number,
  height: number,
  step: number,
): { histogram: Uint32Array; count: number } {
  const histogram = new Uint32Array(256);
  let count = 0;
  const x1 = Math.min(left + width, raster.width);
  for (let y = Math.max(0, top); y < Math.min(top + height, raster.height); y += step) {
    const row = y * raster.width;
    for (let x = Math.max(0, left); x < x1; x += step, count++) histogram[raster.data[row + x]!]!++;
  }
  return { histogram, count };
}

/** Averages `factor` x `factor` blocks: cheap noise reduction and a smaller image to look at. */
export function shrinkGrey(raster: GreyRaster, factor: number): GreyRaster {
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return raster;
  const w = Math.floor(raster.width / f);
  const h = Math.floor(raster.height / f);
  const out = new Uint8Array(w * h);
  const src = raster.data;
  const stride = raster.width;
  if (f === 2) {
    // The common case (300 dpi scans looked at 150 dpi), without the general loops.
    for (let y = 0; y < h; y++) {
      let a = 2 * y * stride;
      let b = a + stride;
      const row = y * w;
      for (let x = 0; x < w; x++, a += 2, b += 2)
        out[row + x] = (src[a]! + src[a + 1]! + src[b]! + src[b + 1]! + 2) >> 2;
    }
    return { width: w, height: h, data: out };
  }
  const sums = new Uint32Array(w);
  const area = f * f;
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      const row = (y * f + dy) * stride;
      for (let x = 0; x < w; x++) {
        let s = 0;
        const start = row + x * f;
        for (let dx = 0; dx < f; dx++) s += src[start + dx]!;
        sums[x]! += s;
      }
    }
    // Rounded to nearest, halves up (as Math.round), in integers.
    for (let x = 0; x < w; x++) out[y * w + x] = ((2 * sums[x]! + area) / (2 * area)) | 0;
  }
  return { width: w, height: h, data: out };
}

/** Typed arrays use the platform's byte order: little-endian but on s390x and the like. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Grey of interleaved RGB pixels, the pipeline's one colour-to-grey: their luma with the weights
 * of Rec. 601 (0.299, 0.587, 0.114), rounded. Scans are JPEGs, whose Y channel was made from RGB
 * with these very weights, so this gives back the scanner's own grey, as a grey scan would have it
 * (Rec. 709's weights are for HD video and would shift every colour scan's grey). A grey pixel
 * (R = G = B) keeps its value.
 */
export function lumaOfRgb(rgb: Uint8Array, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels);
  let done = 0;
  if (LITTLE_ENDIAN && rgb.byteOffset % 4 === 0) {
    // Four pixels at a time: their 12 bytes read as three 32-bit words, their 4 lumas written
    // as one.
    const groups = pixels >> 2;
    const words = new Uint32Array(rgb.buffer, rgb.byteOffset, groups * 3);
    const lumas = new Uint32Array(out.buffer, 0, groups);
    for (let g = 0, w = 0; g < groups; g++, w += 3) {
      const a = words[w]!;
      const b = words[w + 1]!;
      const c = words[w + 2]!;
      const y0 = luma(a & 255, (a >>> 8) & 255, (a >>> 16) & 255);
      const y1 = luma(a >>> 24, b & 255, (b >>> 8) & 255);
      const y2 = luma((b >>> 16) & 255, b >>> 24, c & 255);
      const y3 = luma((c >>> 8) & 255, (c >>> 16) & 255, c >>> 24);
      lumas[g] = (y0 | (y1 << 8) | (y2 << 16) | (y3 << 24)) >>> 0;
    }
    done = groups * 4;
  }
  for (let i = done, j = 3 * done; i < pixels; i++, j += 3)
    out[i] = luma(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!);
  return out;
}

function luma(r: number, g: number, b: number): number {
  return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
}

/** RGBA copy, the only raw pixel layout zxing-wasm reads (grey buffers silently find nothing). */
export function greyToRgba(raster: GreyRaster): {
  width: number;
  height: number;
  data: Uint8ClampedArray;
} {
  const n = raster.width * raster.height;
  const out = new Uint8ClampedArray(n * 4);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = raster.data[i]!;
    // Little-endian RGBA in one 32-bit write: A=255, B=G=R=v.
    words[i] = 0xff000000 | (v << 16) | (v << 8) | v;
  }
  return { width: raster.width, height: raster.height, data: out };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
