// Small grey-image clean-ups tried on code crops that did not read the first time: each undoes one
// kind of scan damage (noise, blur, low contrast, coarse JPEG blocks). Only failing pages pay.
import { shrinkGrey, type GreyRaster } from './raster';

/** Stretches the 2nd..98th percentile of grey to the full range (washed-out or dark scans). */
export function normaliseGrey(raster: GreyRaster): GreyRaster {
  const histogram = greyHistogram(raster);
  const n = raster.width * raster.height;
  const low = percentile(histogram, n, 0.02);
  const high = percentile(histogram, n, 0.98);
  if (high - low < 8) return raster;
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++)
    table[v] = Math.max(0, Math.min(255, Math.round(((v - low) * 255) / (high - low))));
  return mapGrey(raster, table);
}

/** Black and white at Otsu's threshold (the split that best separates ink from paper). */
export function thresholdGrey(raster: GreyRaster): GreyRaster {
  const t = otsuThreshold(raster);
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++) table[v] = v > t ? 255 : 0;
  return mapGrey(raster, table);
}

export function otsuThreshold(raster: GreyRaster): number {
  const histogram = greyHistogram(raster);
  const n = raster.width * raster.height;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v]!;
  let sumBelow = 0;
  let countBelow = 0;
  let best = 127;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t]!;
    if (countBelow === 0) continue;
    const countAbove = n - countBelow;
    if (countAbove === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const variance = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}

/** 3x3 median: removes salt-and-pepper noise while keeping module edges. */
export function medianGrey(raster: GreyRaster): GreyRaster {
  const { width: w, height: h, data } = raster;
  const out = new Uint8Array(data);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      out[i] = median9(
        data[i - w - 1]!,
        data[i - w]!,
        data[i - w + 1]!,
        data[i - 1]!,
        data[i]!,
        data[i + 1]!,
        data[i + w - 1]!,
        data[i + w]!,
        data[i + w + 1]!,
      );
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * Median of nine by a fixed exchange network (Paeth's, 19 compare-exchanges): the same value as
 * sorting, without a sort call per pixel.
 */
function median9(
  p0: number,
  p1: number,
  p2: number,
  p3: number,
  p4: number,
  p5: number,
  p6: number,
  p7: number,
  p8: number,
): number {
  let t: number;
  if (p1 > p2) {
    t = p1;
    p1 = p2;
    p2 = t;
  }
  if (p4 > p5) {
    t = p4;
    p4 = p5;
    p5 = t;
  }
  if (p7 > p8) {
    t = p7;
    p7 = p8;
    p8 = t;
  }
  if (p0 > p1) {
    t = p0;
    p0 = p1;
    p1 = t;
  }
  if (p3 > p4) {
    t = p3;
    p3 = p4;
    p4 = t;
  }
  if (p6 > p7) {
    t = p6;
    p6 = p7;
    p7 = t;
  }
  if (p1 > p2) {
    t = p1;
    p1 = p2;
    p2 = t;
  }
  if (p4 > p5) {
    t = p4;
    p4 = p5;
    p5 = t;
  }
  if (p7 > p8) {
    t = p7;
    p7 = p8;
    p8 = t;
  }
  if (p0 > p3) p3 = p0;
  if (p5 > p8) p5 = p8;
  if (p4 > p7) {
    t = p4;
    p4 = p7;
    p7 = t;
  }
  if (p3 > p6) p6 = p3;
  if (p1 > p4) p4 = p1;
  if (p2 > p5) p2 = p5;
  if (p4 > p7) p4 = p7;
  if (p4 > p2) {
    t = p4;
    p4 = p2;
    p2 = t;
  }
  if (p6 > p4) p4 = p6;
  if (p4 > p2) p4 = p2;
  return p4;
}

/** 3x3 box blur: melts JPEG blocks and fine noise before binarisation. */
export function blurGrey(raster: GreyRaster): GreyRaster {
  const { width: w, height: h, data } = raster;
  const out = new Uint8Array(data);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const sum =
        data[i - w - 1]! +
        data[i - w]! +
        data[i - w + 1]! +
        data[i - 1]! +
        data[i]! +
        data[i + 1]! +
        data[i + w - 1]! +
        data[i + w]! +
        data[i + w + 1]!;
      out[i] = (sum + 4) / 9;
    }
  }
  return { width: w, height: h, data: out };
}

export function halfGrey(raster: GreyRaster): GreyRaster {
  return shrinkGrey(raster, 2);
}

/** Twice the size, bilinear (pixel centres kept aligned). */
export function doubleGrey(raster: GreyRaster): GreyRaster {
  const { width: w, height: h, data: src } = raster;
  const W = w * 2;
  const H = h * 2;
  const out = new Uint8Array(W * H);
  for (let oy = 0; oy < H; oy++) {
    // Output pixel centre (oy + 0.5) / 2 - 0.5 in source pixels.
    const sy = Math.min(h - 1, Math.max(0, (oy - 0.5) / 2));
    const y0 = Math.floor(sy);
    const y1 = Math.min(h - 1, y0 + 1);
    const fy = sy - y0;
    for (let ox = 0; ox < W; ox++) {
      const sx = Math.min(w - 1, Math.max(0, (ox - 0.5) / 2));
      const x0 = Math.floor(sx);
      const x1 = Math.min(w - 1, x0 + 1);
      const fx = sx - x0;
      const top = src[y0 * w + x0]! + (src[y0 * w + x1]! - src[y0 * w + x0]!) * fx;
      const bottom = src[y1 * w + x0]! + (src[y1 * w + x1]! - src[y1 * w + x0]!) * fx;
      out[oy * W + ox] = Math.round(top + (bottom - top) * fy);
    }
  }
  return { width: W, height: H, data: out };
}

export function greyHistogram(raster: GreyRaster): Uint32Array {
  const histogram = new Uint32Array(256);
  const { data } = raster;
  for (let i = 0; i < data.length; i++) histogram[data[i]!]!++;
  return histogram;
}

export function percentile(histogram: Uint32Array, total: number, share: number): number {
  const target = total * share;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= target) return v;
  }
  return 255;
}

function mapGrey(raster: GreyRaster, table: Uint8Array): GreyRaster {
  const out = new Uint8Array(raster.data.length);
  for (let i = 0; i < out.length; i++) out[i] = table[raster.data[i]!]!;
  return { width: raster.width, height: raster.height, data: out };
}
