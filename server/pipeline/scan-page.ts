// Step 1 of the scan pipeline, after mupdf (read-page) has read a page: the page's raster, with
// scan JPEGs decoded by sharp (libjpeg-turbo) and turned pages put upright. Nothing here uses
// mupdf, so a page worker can run it without an instance of mupdf of its own (some 15-20 MB of
// WebAssembly memory each): the thread that has the PDF open reads each page with mupdf and
// hands the worker what it read (LoadedPage).
import sharp, { type Sharp } from 'sharp';
import { cornerCropSide } from './find-codes';
import { jpegComponents } from './jpeg-header';
import { photoPage, type PhotoMediaType } from './photo-page';
import { lumaOfRgb, type GreyRaster, type PageRaster } from './raster';

// libvips keeps recent operations' results (up to 50 MB) in case they are asked for again:
// every page is decoded and encoded once, so that cache only holds memory.
sharp.cache(false);

/** A page larger than the pixel budget allows at read-page's MIN_READING_DPI: it is refused, not read. */
export class PageTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageTooLargeError';
  }
}

export interface ReadPageOptions {
  /** Also return RGB pixels for colour pages (for colour page images). Default false. */
  colour?: boolean;
  renderDpi?: number;
}

/** A page as far as mupdf reads it; the whole raster is decoded when first asked for. */
export interface ScanPage {
  raster(): Promise<PageRaster>;
  /** Set when the page is exactly a scan JPEG placed upright on it. */
  jpeg?: UprightJpeg;
}

/**
 * A scan JPEG placed upright on its PDF page (whatever way the sheet was fed), and its top band,
 * decoded alone: the decoder stops after the band's rows, so a band of a third of the page costs a
 * third of a decode (a 200-dpi A4 page: 4 ms of 12). When a code is read in one of the band's two
 * corners, the rest is never decoded (findCodeInTopBand).
 */
export interface UprightJpeg {
  bytes: Uint8Array;
  width: number;
  height: number;
  dpi: number;
  /** The first `topRows` rows, full width: the top-right corner crop of find-codes fits. */
  top: Promise<GreyRaster>;
  topRows: number;
}

/**
 * A page as mupdf leaves it (read-page): its raster, or a scan JPEG still to be decoded by sharp.
 * Plain data, so it can be handed to a page worker (see transferablesOf).
 */
export type LoadedPage =
  | { raster: PageRaster }
  | { jpeg: Uint8Array; dpi: number; width: number; height: number }
  | { turnedJpeg: Uint8Array; turn: ImageTurn; dpi: number }
  /** A photo of a page (photo-pages), straightened where it is decoded. */
  | { photo: Uint8Array; mediaType: PhotoMediaType };

/** The whole page's raster of a loaded page. */
export function decodeLoaded(loaded: LoadedPage, options: ReadPageOptions): Promise<PageRaster> {
  if ('raster' in loaded) return Promise.resolve(loaded.raster);
  if ('turnedJpeg' in loaded) return decodeTurnedJpeg(loaded.turnedJpeg, loaded.turn, loaded.dpi);
  if ('photo' in loaded) return photoPage(loaded.photo, loaded.mediaType);
  return decodeJpeg(loaded.jpeg, loaded.dpi, options);
}

/**
 * A JPEG placed turned or mirrored on its page: decoded by sharp (libjpeg-turbo, several times
 * faster than mupdf's WASM decoder, and mupdf's heap never grows by a page of pixels), then put
 * upright here. Its bytes are not the page's as shown, so they are not kept as the page image.
 */
async function decodeTurnedJpeg(
  jpeg: Uint8Array,
  turn: ImageTurn,
  dpi: number,
): Promise<PageRaster> {
  const decoded = await decodeJpeg(jpeg, dpi, {});
  const upright = placeOnPage(decoded.data, decoded.width, decoded.height, 1, turn);
  return { ...upright, dpi, source: 'embedded_image' };
}

/**
 * The page of a loaded page: a scan JPEG that is exactly an upright page has only its top band
 * decoded now (see UprightJpeg); anything else has its whole raster decoded now, so the next page
 * decodes while this one is searched.
 */
export function scanPageOf(loaded: LoadedPage, options: ReadPageOptions = {}): ScanPage {
  if (!('jpeg' in loaded)) {
    const decoded = decodeLoaded(loaded, options);
    return { raster: () => decoded };
  }
  const { jpeg, dpi, width, height } = loaded;
  const topRows = Math.min(height, cornerCropSide(width, height));
  const top = decodeJpegTop(jpeg, width, topRows);
  let whole: Promise<PageRaster> | undefined;
  return {
    raster: () => (whole ??= decodeJpeg(jpeg, dpi, options)),
    jpeg: { bytes: jpeg, width, height, dpi, top, topRows },
  };
}

/** The pixel and JPEG arrays of a loaded page (what is worth moving to a page worker). */
export function arraysOf(loaded: LoadedPage): (Uint8Array | undefined)[] {
  if ('raster' in loaded) return [loaded.raster.data, loaded.raster.rgb];
  if ('photo' in loaded) return [loaded.photo];
  return ['jpeg' in loaded ? loaded.jpeg : loaded.turnedJpeg];
}

/**
 * Plain JPEG scans are decoded by sharp (libjpeg-turbo): several times faster than mupdf's WASM
 * decoder, and on libuv's threads, so the next page decodes while this one is searched.
 * Lenient like mupdf: a truncated JPEG decodes as far as it goes.
 */
async function decodeJpeg(
  jpeg: Uint8Array,
  dpi: number,
  options: ReadPageOptions,
): Promise<PageRaster> {
  const input = Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  // Decoded as RGB only when a colour page image is asked for: a whole page of RGB held for a
  // moment beside everything else raised the embedded server's peak memory by 5-25 MB
  // (bench/pipeline-rss.ts, 500 pages), where its target leaves little room.
  const decoded = await decodedPixels(jpeg, sharp(input, { failOn: 'none' }), {
    rgb: !!options.colour,
  });
  const raster: PageRaster = {
    ...greyOf(decoded),
    dpi,
    source: 'embedded_image',
    jpeg,
  };
  // A colour scan's RGB decode also gives the colour page image, when one is asked for.
  if (decoded.channels === 3 && options.colour && hasColour(decoded.data)) raster.rgb = decoded.data;
  return raster;
}

/** The first `rows` rows of a JPEG, grey; the decoder reads no further (sequential access). */
function decodeJpegTop(jpeg: Uint8Array, width: number, rows: number): Promise<GreyRaster> {
  const input = Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  return greyPixels(
    jpeg,
    sharp(input, { failOn: 'none', sequentialRead: true }).extract({
      left: 0,
      top: 0,
      width,
      height: rows,
    }),
  );
}

/** A JPEG's pixels as the decoder gives them: grey (1 channel) or RGB (3). */
interface DecodedPixels {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

/**
 * When `rgb` is asked for, a JPEG that is not grey (colour, CMYK, a header not read) is decoded
 * to sRGB; a grey one, or any when RGB is not asked for, to grey by libvips, which decodes a grey
 * JPEG as it is (asked for raw pixels alone, sharp gives it as RGB).
 */
async function decodedPixels(
  jpeg: Uint8Array,
  image: Sharp,
  options: { rgb: boolean },
): Promise<DecodedPixels> {
  const colour = options.rgb && jpegComponents(jpeg) !== 1;
  const { data, info } = await (
    colour ? image.removeAlpha().toColourspace('srgb') : image.toColourspace('b-w')
  )
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== (colour ? 3 : 1))
    throw new Error(`unexpected JPEG decode with ${info.channels} channels`);
  return {
    width: info.width,
    height: info.height,
    channels: colour ? 3 : 1,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/**
 * Grey pixels of a decode. A colour scan's luma is taken here (lumaOfRgb) rather than by libvips,
 * whose grey goes through linear light in floating point: on a 300-dpi A4 colour page that cost
 * 30 ms, more than the RGB decode itself (25 ms); on its top band, 12.5 ms against 9.8.
 */
function greyOf({ width, height, channels, data }: DecodedPixels): GreyRaster {
  return { width, height, data: channels === 1 ? data : lumaOfRgb(data, width * height) };
}

/** A JPEG's pixels as grey, one byte each; a colour one's through its RGB (a top band is small). */
async function greyPixels(jpeg: Uint8Array, image: Sharp): Promise<GreyRaster> {
  return greyOf(await decodedPixels(jpeg, image, { rgb: true }));
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
