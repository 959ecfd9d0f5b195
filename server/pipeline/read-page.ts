// Step 1 of the scan pipeline: turn each page of an uploaded PDF into a grey raster.
// A scanner's PDF page is usually one full-page image: decoding that image is faster and sharper
// than rendering the page, so it is taken as is (CCITT, JBIG2, Flate, odd JPEGs through mupdf;
// plain upright JPEGs through sharp). Anything else is rendered.
// Files can be 1.5 GB: the PDF is read through a file descriptor, never loaded whole, and every
// mupdf object is destroyed as soon as its pixels are copied out of the WASM heap.
import * as fs from 'node:fs';
import * as mupdf from 'mupdf';
import sharp, { type Sharp } from 'sharp';
import { cornerCropSide } from './find-codes';
import type { GreyRaster } from './raster';

// libvips keeps recent operations' results (up to 50 MB) in case they are asked for again:
// every page is decoded and encoded once, so that cache only holds memory.
sharp.cache(false);

export const RENDER_DPI = 150;
/** Embedded images above this resolution are rendered down instead (decoding them whole is slow). */
export const MAX_EMBEDDED_DPI = 320;
/** The image must cover this share of the page's width and height to count as the page's scan. */
const FULL_PAGE_SHARE = 0.9;

export type RasterSource = 'embedded_image' | 'rendered';

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
}

export interface ReadPageOptions {
  /** Also return RGB pixels for colour pages (for colour page images). Default false. */
  colour?: boolean;
  renderDpi?: number;
}

export interface ScanPdf {
  readonly pageCount: number;
  /** `pageNumber` is 1-based. Rejects when the page cannot be read; other pages stay readable. */
  readPage(pageNumber: number, options?: ReadPageOptions): Promise<PageRaster>;
  /**
   * Like readPage, but a page that is exactly an upright scan JPEG is not decoded whole yet: only
   * its top band is (started now), where most pages' code is read (see UprightJpeg).
   */
  loadPage(pageNumber: number, options?: ReadPageOptions): Promise<ScanPage>;
  close(): void;
}

/** A page as far as mupdf reads it; the whole raster is decoded when first asked for. */
export interface ScanPage {
  raster(): Promise<PageRaster>;
  /** Set when the page is exactly an upright scan JPEG. */
  jpeg?: UprightJpeg;
}

/**
 * An upright scan JPEG and its top band, decoded alone: the decoder stops after the band's rows,
 * so a band of a third of the page costs a third of a decode (a 200-dpi A4 page: 4 ms of 12).
 * When the top-right code is read there and the page is upright, the rest is never decoded.
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

/** The file is not a PDF mupdf can open (the message keeps mupdf's reason). */
export class UnreadablePdfError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadablePdfError';
  }
}

/** Opens a PDF from disk without reading it into memory. Throws UnreadablePdfError when it is not a readable PDF. */
export function openScanPdf(path: string): ScanPdf {
  const fd = fs.openSync(path, 'r');
  let fdOpen = true;
  const closeFd = () => {
    if (fdOpen) {
      fdOpen = false;
      fs.closeSync(fd);
    }
  };
  const size = fs.fstatSync(fd).size;
  let stream: mupdf.Stream | undefined;
  try {
    stream = new mupdf.Stream({
      fileSize: () => size,
      read: (memory, offset, length, position) =>
        position >= size ? 0 : fs.readSync(fd, memory, offset, length, position),
      close: closeFd,
    });
    const doc = openPdf(stream);
    return wrapDocument(doc, () => {
      doc.destroy();
      stream?.destroy();
      closeFd();
    });
  } catch (error) {
    stream?.destroy();
    closeFd();
    throw error;
  }
}

/** Same as openScanPdf for a PDF already in memory (small files, tests). */
export function openScanPdfBytes(bytes: Uint8Array): ScanPdf {
  const doc = openPdf(bytes);
  return wrapDocument(doc, () => doc.destroy());
}

function openPdf(from: mupdf.Stream | Uint8Array): mupdf.Document {
  let doc: mupdf.Document | undefined;
  try {
    doc = mupdf.Document.openDocument(from, 'application/pdf');
    // Counting pages loads the page tree: a file without one is no readable PDF either.
    doc.countPages();
    return doc;
  } catch (error) {
    doc?.destroy();
    throw new UnreadablePdfError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}

function wrapDocument(doc: mupdf.Document, close: () => void): ScanPdf {
  const pageCount = doc.countPages();
  let closed = false;
  // Everything mupdf does happens here, synchronously; only a JPEG decode is left for later.
  const load = (pageNumber: number, options: ReadPageOptions): LoadedPage => {
    if (closed) throw new Error('PDF already closed');
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
      throw new RangeError(`page ${pageNumber} is not in 1..${pageCount}`);
    }
    const page = doc.loadPage(pageNumber - 1);
    try {
      return readLoadedPage(page, options);
    } finally {
      page.destroy();
      // mupdf keeps decoded images in its store (up to 256 MB) in case the page is shown
      // again; each page is read once, so that cache only grows the WASM heap, which never
      // shrinks.
      mupdf.emptyStore();
    }
  };
  return {
    pageCount,
    async readPage(pageNumber, options = {}) {
      return decodeLoaded(load(pageNumber, options), options);
    },
    async loadPage(pageNumber, options = {}) {
      const loaded = load(pageNumber, options);
      if (!('jpeg' in loaded)) {
        // Started now, like readPage: the next page decodes while this one is searched.
        const decoded = decodeLoaded(loaded, options);
        decoded.catch(() => undefined);
        return { raster: () => decoded };
      }
      const { jpeg, dpi, width, height } = loaded;
      const topRows = Math.min(height, cornerCropSide(width, height));
      const top = decodeJpegTop(jpeg, width, topRows);
      top.catch(() => undefined);
      let whole: Promise<PageRaster> | undefined;
      return {
        raster: () => (whole ??= decodeJpeg(jpeg, dpi, options)),
        jpeg: { bytes: jpeg, width, height, dpi, top, topRows },
      };
    },
    close() {
      if (closed) return;
      closed = true;
      close();
    },
  };
}

/** A page read on this thread, or a scan JPEG still to be decoded (by sharp, off this thread). */
type LoadedPage =
  | { raster: PageRaster }
  | { jpeg: Uint8Array; dpi: number; width: number; height: number }
  | { turnedJpeg: Uint8Array; turn: ImageTurn; dpi: number };

/** The whole page's raster of a loaded page. */
function decodeLoaded(loaded: LoadedPage, options: ReadPageOptions): Promise<PageRaster> {
  if ('raster' in loaded) return Promise.resolve(loaded.raster);
  if ('turnedJpeg' in loaded) return decodeTurnedJpeg(loaded.turnedJpeg, loaded.turn, loaded.dpi);
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
  return {
    ...placeOnPage(decoded.data, decoded.width, decoded.height, 1, turn),
    dpi,
    source: 'embedded_image',
  };
}

function readLoadedPage(page: mupdf.Page, options: ReadPageOptions): LoadedPage {
  const bounds = page.getBounds();
  const pageWidthIn = (bounds[2] - bounds[0]) / 72;
  const found = findFullPageImage(page, bounds);
  if (found) {
    try {
      const turn = imageTurn(found.ctm);
      if (turn) {
        const across = turn.swapsAxes ? found.image.getHeight() : found.image.getWidth();
        const dpi = across / pageWidthIn;
        if (dpi <= MAX_EMBEDDED_DPI) {
          const upright = !turn.swapsAxes && !turn.flipColumns && !turn.flipRows;
          // Colour is kept from upright JPEGs only (turned colour scans are mupdf's).
          const jpeg = upright || !options.colour ? embeddedJpeg(page, found.image) : undefined;
          if (jpeg && upright)
            return { jpeg, dpi, width: found.image.getWidth(), height: found.image.getHeight() };
          if (jpeg) return { turnedJpeg: jpeg, turn, dpi };
          return { raster: decodeImage(found.image, turn, dpi, options) };
        }
      }
    } finally {
      found.image.destroy();
    }
  }
  return { raster: renderPage(page, options.renderDpi ?? RENDER_DPI, options) };
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
  const raster: PageRaster = {
    ...(await greyPixels(sharp(input, { failOn: 'none' }))),
    dpi,
    source: 'embedded_image',
    jpeg,
  };
  if (options.colour) {
    const colour = await sharp(input, { failOn: 'none' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (colour.info.channels === 3) {
      const rgb = new Uint8Array(
        colour.data.buffer,
        colour.data.byteOffset,
        colour.data.byteLength,
      );
      if (hasColour(rgb)) raster.rgb = rgb;
    }
  }
  return raster;
}

/** The first `rows` rows of a JPEG, grey; the decoder reads no further (sequential access). */
function decodeJpegTop(jpeg: Uint8Array, width: number, rows: number): Promise<GreyRaster> {
  const input = Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  return greyPixels(
    sharp(input, { failOn: 'none', sequentialRead: true }).extract({
      left: 0,
      top: 0,
      width,
      height: rows,
    }),
  );
}

/** An image's pixels as grey, one byte each. */
async function greyPixels(image: Sharp): Promise<GreyRaster> {
  const { data, info } = await image
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected a grey decode, got ${info.channels} channels`);
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

interface FoundImage {
  image: mupdf.Image;
  ctm: mupdf.Matrix;
}

/**
 * The page's scan image when the page shows exactly one image over (nearly) all of it and nothing
 * else visible. Invisible OCR text and clipping do not count as visible.
 */
function findFullPageImage(page: mupdf.Page, bounds: mupdf.Rect): FoundImage | null {
  const images: FoundImage[] = [];
  let otherMarks = 0;
  const mark = (...objects: { destroy(): void }[]) => {
    otherMarks++;
    for (const object of objects) object.destroy();
  };
  const drop = (...objects: { destroy(): void }[]) => {
    for (const object of objects) object.destroy();
  };
  const device = new mupdf.Device({
    fillImage(image, ctm) {
      images.push({ image, ctm });
    },
    fillPath: (path, _evenOdd, _ctm, colorspace) => mark(path, colorspace),
    strokePath: (path, stroke, _ctm, colorspace) => mark(path, stroke, colorspace),
    fillText: (text, _ctm, colorspace) => mark(text, colorspace),
    strokeText: (text, stroke, _ctm, colorspace) => mark(text, stroke, colorspace),
    fillShade: (shade) => mark(shade),
    fillImageMask: (image, _ctm, colorspace) => mark(image, colorspace),
    clipPath: (path) => drop(path),
    clipStrokePath: (path, stroke) => drop(path, stroke),
    clipText: (text) => drop(text),
    clipStrokeText: (text, stroke) => drop(text, stroke),
    ignoreText: (text) => drop(text),
    clipImageMask: (image) => drop(image),
    beginMask: (_bbox, _luminosity, colorspace) => drop(colorspace),
    beginGroup: (_bbox, colorspace) => drop(colorspace),
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  const [first, ...rest] = images;
  for (const extra of rest) extra.image.destroy();
  if (!first || rest.length > 0 || otherMarks > 0) {
    first?.image.destroy();
    return null;
  }
  const box = mupdf.Rect.transform([0, 0, 1, 1], first.ctm);
  const pageW = bounds[2] - bounds[0];
  const pageH = bounds[3] - bounds[1];
  const coveredW = Math.min(box[2], bounds[2]) - Math.max(box[0], bounds[0]);
  const coveredH = Math.min(box[3], bounds[3]) - Math.max(box[1], bounds[1]);
  if (
    coveredW < pageW * FULL_PAGE_SHARE ||
    coveredH < pageH * FULL_PAGE_SHARE ||
    first.image.getImageMask()
  ) {
    first.image.destroy();
    return null;
  }
  return first;
}

/** The raw bytes of the page's only image XObject when that is a plain grey or RGB JPEG. */
function embeddedJpeg(page: mupdf.Page, image: mupdf.Image): Uint8Array | undefined {
  if (!(page instanceof mupdf.PDFPage)) return undefined;
  const components = image.getNumberOfComponents();
  if (components !== 1 && components !== 3) return undefined;
  const xobjects = page.getObject().getInheritable('Resources').get('XObject');
  // Streams are read through their reference; their dictionary through the resolved object.
  const images: { ref: mupdf.PDFObject; dict: mupdf.PDFObject }[] = [];
  if (xobjects.isDictionary()) {
    xobjects.forEach((ref) => {
      const dict = ref.resolve();
      const subtype = dict.get('Subtype');
      if (subtype.isName() && subtype.asName() === 'Image') images.push({ ref, dict });
    });
  }
  const [image0] = images;
  if (images.length !== 1 || !image0 || !image0.ref.isStream()) return undefined;
  const only = image0.dict;
  const filter = only.get('Filter');
  const filterName = filter.isName()
    ? filter.asName()
    : filter.isArray() && filter.length === 1
      ? filter.get(0).asName()
      : null;
  // A Decode array or a mask changes what the JPEG shows; a size mismatch means another image.
  if (
    filterName !== 'DCTDecode' ||
    !only.get('Decode').isNull() ||
    !only.get('SMask').isNull() ||
    !only.get('Mask').isNull()
  )
    return undefined;
  if (
    only.get('Width').asNumber() !== image.getWidth() ||
    only.get('Height').asNumber() !== image.getHeight()
  )
    return undefined;
  const buffer = image0.ref.readRawStream();
  try {
    const bytes = buffer.asUint8Array().slice();
    // JPEG start-of-image marker: anything else is not a plain JPEG file.
    return bytes[0] === 0xff && bytes[1] === 0xd8 ? bytes : undefined;
  } finally {
    buffer.destroy();
  }
}

interface ImageTurn {
  /** Image columns run down the page (a quarter turn). */
  swapsAxes: boolean;
  /** Image columns (or rows) run against the page's x (or y) axis. */
  flipColumns: boolean;
  flipRows: boolean;
}

/**
 * How the image sits on the page, from its matrix: image pixel (u, v) in the unit square lands at
 * (a*u + c*v + e, b*u + d*v + f) in page space (y down). Only quarter turns and flips are mapped
 * pixel for pixel; a skewed placement returns null and the page is rendered instead.
 */
function imageTurn(ctm: mupdf.Matrix): ImageTurn | null {
  const [a, b, c, d] = ctm;
  const straight = Math.abs(b) <= 0.01 * Math.abs(a) && Math.abs(c) <= 0.01 * Math.abs(d);
  const quarter = Math.abs(a) <= 0.01 * Math.abs(b) && Math.abs(d) <= 0.01 * Math.abs(c);
  if (straight) return { swapsAxes: false, flipColumns: a < 0, flipRows: d < 0 };
  // Columns advance along page y (sign of b), rows along page x (sign of c).
  if (quarter) return { swapsAxes: true, flipColumns: b < 0, flipRows: c < 0 };
  return null;
}

function decodeImage(
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
 * Many scanners write RGB JPEGs even for grey paper. Converting here, straight from the WASM view,
 * is several times faster than mupdf's colour-managed conversion and needs no RGB copy.
 */
function rgbPixmapToGrey(pixmap: mupdf.Pixmap): Uint8Array {
  const w = pixmap.getWidth();
  const h = pixmap.getHeight();
  const stride = pixmap.getStride();
  const view = pixmap.getPixels();
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let j = y * stride;
    const row = y * w;
    for (let x = 0; x < w; x++, j += 3)
      out[row + x] = (view[j]! * 77 + view[j + 1]! * 150 + view[j + 2]! * 29) >> 8;
  }
  return out;
}

function packedPixels(pixmap: mupdf.Pixmap, channels: number): Uint8Array {
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

/** Reorders image pixels into page orientation (most scans need nothing). */
function placeOnPage(
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

function renderPage(page: mupdf.Page, dpi: number, options: ReadPageOptions): PageRaster {
  const matrix = mupdf.Matrix.scale(dpi / 72, dpi / 72);
  const pixmap = page.toPixmap(
    matrix,
    options.colour ? mupdf.ColorSpace.DeviceRGB : mupdf.ColorSpace.DeviceGray,
    false,
    true,
  );
  try {
    const w = pixmap.getWidth();
    const h = pixmap.getHeight();
    if (!options.colour)
      return { width: w, height: h, data: packedPixels(pixmap, 1), dpi, source: 'rendered' };
    const rgb = packedPixels(pixmap, 3);
    return {
      width: w,
      height: h,
      data: rgbToGrey(rgb),
      rgb: hasColour(rgb) ? rgb : undefined,
      dpi,
      source: 'rendered',
    } as PageRaster;
  } finally {
    pixmap.destroy();
  }
}

function rgbToGrey(rgb: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgb.length / 3);
  for (let i = 0, j = 0; i < out.length; i++, j += 3) {
    out[i] = (rgb[j]! * 77 + rgb[j + 1]! * 150 + rgb[j + 2]! * 29) >> 8;
  }
  return out;
}

function hasColour(rgb: Uint8Array): boolean {
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
