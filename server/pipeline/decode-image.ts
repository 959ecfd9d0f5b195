// A mupdf image's pixels as a page raster: grey (and RGB for colour pages when asked for), put
// upright. Used where the PDF is read (read-page) and for the scan JPEGs a page worker decodes
// (scan-page): the pixels are decoded in mupdf's WebAssembly memory, which each thread reuses page
// after page, and copied out once.
import * as mupdf from 'mupdf';
import { lumaOfRgb, type GreyRaster } from './raster';
import type { PageRaster, ReadPageOptions } from './scan-page';

export function decodeImage(
  image: mupdf.Image,
  turn: ImageTurn,
  dpi: number,
  options: ReadPageOptions,
): PageRaster {
  const pixmap = image.toPixmap();
  try {
    const w = pixmap.getWidth();
    const h = pixmap.getHeight();
    const kind = pixmapKind(pixmap);
    const grey =
      kind === 'grey'
        ? packedPixels(pixmap, 1)
        : kind === 'rgb'
          ? rgbPixmapToGrey(pixmap)
          : convertedPixels(pixmap, mupdf.ColorSpace.DeviceGray, 1);
    const raster: PageRaster = {
      ...placeOnPage(grey, w, h, 1, turn),
      dpi,
      source: 'embedded_image',
    };
    if (options.colour && kind !== 'grey') {
      const rgb =
        kind === 'rgb'
          ? packedPixels(pixmap, 3)
          : convertedPixels(pixmap, mupdf.ColorSpace.DeviceRGB, 3);
      if (hasColour(rgb)) raster.rgb = placeOnPage(rgb, w, h, 3, turn).data;
    }
    return raster;
  } finally {
    pixmap.destroy();
  }
}

/** Plain grey and plain RGB are converted here; anything else (CMYK, Lab, alpha...) by mupdf. */
function pixmapKind(pixmap: mupdf.Pixmap): 'grey' | 'rgb' | 'other' {
  const cs = pixmap.getColorSpace();
  try {
    if (!cs || pixmap.getAlpha() !== 0) return 'other';
    const n = pixmap.getNumberOfComponents();
    if (n === 1 && cs.isGray()) return 'grey';
    if (n === 3 && cs.isRGB()) return 'rgb';
    return 'other';
  } finally {
    cs?.destroy();
  }
}

function convertedPixels(
  pixmap: mupdf.Pixmap,
  colorspace: mupdf.ColorSpace,
  channels: 1 | 3,
): Uint8Array {
  const converted = pixmap.convertToColorSpace(colorspace, false);
  try {
    return packedPixels(converted, channels);
  } finally {
    converted.destroy();
  }
}

/**
 * Many scanners write RGB JPEGs even for grey paper. Converting here (lumaOfRgb, the pipeline's one
 * colour-to-grey), straight from the WASM view when rows are unpadded, is several times faster
 * than mupdf's colour-managed conversion and needs no RGB copy.
 */
function rgbPixmapToGrey(pixmap: mupdf.Pixmap): Uint8Array {
  const w = pixmap.getWidth();
  const h = pixmap.getHeight();
  if (pixmap.getStride() !== w * 3) return lumaOfRgb(packedPixels(pixmap, 3), w * h);
  const view = pixmap.getPixels();
  return lumaOfRgb(new Uint8Array(view.buffer, view.byteOffset, w * h * 3), w * h);
}

export function packedPixels(pixmap: mupdf.Pixmap, channels: number): Uint8Array {
  const w = pixmap.getWidth();
  const h = pixmap.getHeight();
  const stride = pixmap.getStride();
  const view = pixmap.getPixels();
  const rowBytes = w * channels;
  if (stride === rowBytes) return new Uint8Array(view.slice(0, rowBytes * h).buffer);
  const out = new Uint8Array(rowBytes * h);
  for (let y = 0; y < h; y++)
    out.set(view.subarray(y * stride, y * stride + rowBytes), y * rowBytes);
  return out;
}

export interface ImageTurn {
  /** Image columns run down the page (a quarter turn). */
  swapsAxes: boolean;
  /** Image columns (or rows) run against the page's x (or y) axis. */
  flipColumns: boolean;
  flipRows: boolean;
}

/** Reorders image pixels into page orientation (most scans need nothing). */
export function placeOnPage(
  data: Uint8Array,
  w: number,
  h: number,
  channels: number,
  turn: ImageTurn,
): GreyRaster {
  if (!turn.swapsAxes && !turn.flipColumns && !turn.flipRows) return { width: w, height: h, data };
  const outW = turn.swapsAxes ? h : w;
  const outH = turn.swapsAxes ? w : h;
  // The common turns of grey scans in tight loops (the general one below is 5-10x slower).
  if (channels === 1 && !turn.swapsAxes) return flippedGrey(data, w, h, turn);
  if (channels === 1) return transposedGrey(data, w, h, turn);
  const out = new Uint8Array(data.length);
  for (let oy = 0; oy < outH; oy++) {
    for (let ox = 0; ox < outW; ox++) {
      let col: number;
      let row: number;
      if (!turn.swapsAxes) {
        col = turn.flipColumns ? w - 1 - ox : ox;
        row = turn.flipRows ? h - 1 - oy : oy;
      } else {
        col = turn.flipColumns ? w - 1 - oy : oy;
        row = turn.flipRows ? h - 1 - ox : ox;
      }
      const from = (row * w + col) * channels;
      const to = (oy * outW + ox) * channels;
      for (let k = 0; k < channels; k++) out[to + k] = data[from + k]!;
    }
  }
  return { width: outW, height: outH, data: out };
}

/** A grey image turned upside down (both flips), or mirrored along one axis. */
function flippedGrey(data: Uint8Array, w: number, h: number, turn: ImageTurn): GreyRaster {
  const out = new Uint8Array(data.length);
  if (turn.flipColumns && turn.flipRows) {
    out.set(data);
    out.reverse();
  } else if (turn.flipRows) {
    for (let y = 0; y < h; y++) out.set(data.subarray((h - 1 - y) * w, (h - y) * w), y * w);
  } else {
    for (let y = 0; y < h; y++) {
      const row = out.subarray(y * w, (y + 1) * w);
      row.set(data.subarray(y * w, (y + 1) * w));
      row.reverse();
    }
  }
  return { width: w, height: h, data: out };
}

/** A grey image a quarter turn round: image columns become page rows. */
function transposedGrey(data: Uint8Array, w: number, h: number, turn: ImageTurn): GreyRaster {
  const outW = h;
  const outH = w;
  const out = new Uint8Array(data.length);
  for (let oy = 0; oy < outH; oy++) {
    const col = turn.flipColumns ? w - 1 - oy : oy;
    const rowStart = oy * outW;
    if (turn.flipRows)
      for (let ox = 0, from = (h - 1) * w + col; ox < outW; ox++, from -= w)
        out[rowStart + ox] = data[from]!;
    else for (let ox = 0, from = col; ox < outW; ox++, from += w) out[rowStart + ox] = data[from]!;
  }
  return { width: outW, height: outH, data: out };
}

export function hasColour(rgb: Uint8Array): boolean {
  // Sampled: a page with any real colour has plenty of it.
  const step = 3 * 97;
  for (let i = 0; i + 2 < rgb.length; i += step) {
    const r = rgb[i]!;
    const g = rgb[i + 1]!;
    const b = rgb[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 40) return true;
  }
  return false;
}

/**
 * A scan JPEG's raster, decoded by mupdf: its pixels come out of mupdf's WebAssembly memory, which
 * this thread reuses page after page, so a page of pixels never passes through the heaps of
 * libuv's threads (as sharp's did: glibc kept each thread's freed rasters, some 190 MB at the
 * embedded server's peak). Lenient: a truncated JPEG decodes as far as it goes.
 */
export function decodeJpeg(
  jpeg: Uint8Array,
  turn: ImageTurn,
  dpi: number,
  options: ReadPageOptions,
): PageRaster {
  const image = new mupdf.Image(jpeg);
  try {
    return decodeImage(image, turn, dpi, options);
  } finally {
    image.destroy();
    // mupdf keeps decoded images in its store; each is decoded once.
    mupdf.emptyStore();
  }
}
