// The in-memory page image every pipeline step works on: 8-bit grey, one byte per pixel, rows
// top to bottom without padding. Grey is all code finding and blank detection need, and it is a
// third of the memory of RGB.

export interface GreyRaster {
  width: number;
  height: number;
  data: Uint8Array;
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

/** A copy with a `border`-pixel frame of grey `value` around it. */
export function padGrey(raster: GreyRaster, border: number, value: number): GreyRaster {
  const w = raster.width + 2 * border;
  const h = raster.height + 2 * border;
  const data = new Uint8Array(w * h).fill(value);
  for (let y = 0; y < raster.height; y++) {
    data.set(
      raster.data.subarray(y * raster.width, (y + 1) * raster.width),
      (y + border) * w + border,
    );
  }
  return { width: w, height: h, data };
}

/** Averages `factor` x `factor` blocks: cheap noise reduction and a smaller image to look at. */
export function shrinkGrey(raster: GreyRaster, factor: number): GreyRaster {
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return raster;
  const w = Math.floor(raster.width / f);
  const h = Math.floor(raster.height / f);
  const out = new Uint8Array(w * h);
  const sums = new Uint32Array(w);
  const area = f * f;
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      const row = (y * f + dy) * raster.width;
      for (let x = 0; x < w; x++) {
        let s = 0;
        const start = row + x * f;
        for (let dx = 0; dx < f; dx++) s += raster.data[start + dx]!;
        sums[x]! += s;
      }
    }
    for (let x = 0; x < w; x++) out[y * w + x] = Math.round(sums[x]! / area);
  }
  return { width: w, height: h, data: out };
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
