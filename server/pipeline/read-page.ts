// Step 1 of the scan pipeline: turn each page of an uploaded PDF into a grey raster.
// A scanner's PDF page is usually one full-page image: decoding that image is faster and sharper
// than rendering the page, so it is taken as is (CCITT, JBIG2, Flate, odd JPEGs through mupdf;
// plain JPEGs through sharp, in scan-page). Anything else is rendered.
// Files can be 1.5 GB: the PDF is read through a file descriptor, never loaded whole, and every
// mupdf object is destroyed as soon as its pixels are copied out of the WASM heap.
import * as fs from 'node:fs';
import * as mupdf from 'mupdf';
import { BlockReader } from './block-reader';
import { lumaOfRgb, type PageRaster } from './raster';
import {
  PageTooLargeError,
  decodeLoaded,
  hasColour,
  placeOnPage,
  scanPageOf,
  type ImageTurn,
  type LoadedPage,
  type ReadPageOptions,
  type ScanPage,
} from './scan-page';

export const RENDER_DPI = 150;
/** Embedded images above this resolution are rendered down instead (decoding them whole is slow). */
export const MAX_EMBEDDED_DPI = 320;
/**
 * The most pixels one page image may have: an A2 sheet at the reading DPI, some 16 MB of grey.
 * A page larger than that (a 443-byte PDF can ask for a 14,400 pt square, 3 GB at 150 dpi) is
 * rendered at a lower DPI (refused under MIN_READING_DPI), and an embedded image over it is
 * rendered down rather than decoded.
 */
export const MAX_PAGE_PIXELS = 16_000_000;
/** Below this, a page rendered within MAX_PAGE_PIXELS is too coarse for its codes: it is refused. */
export const MIN_READING_DPI = 50;
/** The image must cover this share of the page's width and height to count as the page's scan. */
const FULL_PAGE_SHARE = 0.9;

export interface ScanPdf {
  readonly pageCount: number;
  /** `pageNumber` is 1-based. Rejects when the page cannot be read; other pages stay readable. */
  readPage(pageNumber: number, options?: ReadPageOptions): Promise<PageRaster>;
  /**
   * Like readPage, but a page that is exactly a scan JPEG placed upright on it is not decoded whole yet: only
   * its top band is (started now), where most pages' code is read (see UprightJpeg).
   */
  loadPage(pageNumber: number, options?: ReadPageOptions): Promise<ScanPage>;
  /**
   * What mupdf reads of the page, on this thread, with nothing left to mupdf: scanPageOf makes
   * it a ScanPage (here or on a page worker). Throws when the page cannot be read.
   */
  readLoadedPage(pageNumber: number, options?: ReadPageOptions): LoadedPage;
  close(): void;
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
  try {
    const pdf = openScanPdfAt(fd);
    let open = true;
    const close = () => {
      pdf.close();
      if (open) fs.closeSync(fd);
      open = false;
    };
    return { ...pdf, close };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * Same as openScanPdf over a file descriptor the caller keeps and closes: a page worker reads
 * through its file's descriptor, which stays the caller's if the worker is stopped mid-page.
 */
export function openScanPdfAt(fd: number): ScanPdf {
  const size = fs.fstatSync(fd).size;
  const blocks = new BlockReader(fd, size);
  let stream: mupdf.Stream | undefined;
  try {
    stream = new mupdf.Stream({
      fileSize: () => size,
      read: (memory, offset, length, position) => blocks.read(memory, offset, length, position),
      // The descriptor is the caller's.
      close: () => undefined,
    });
    const doc = openPdf(stream);
    return wrapDocument(doc, () => {
      doc.destroy();
      stream?.destroy();
    });
  } catch (error) {
    stream?.destroy();
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
      return scanPageOf(load(pageNumber, options), options);
    },
    readLoadedPage(pageNumber, options = {}) {
      return load(pageNumber, options);
    },
    close() {
      if (closed) return;
      closed = true;
      close();
    },
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
        if (dpi <= MAX_EMBEDDED_DPI && found.image.getWidth() * found.image.getHeight() <= MAX_PAGE_PIXELS) {
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
  const dpi = dpiWithinBudget(bounds, options.renderDpi ?? RENDER_DPI);
  if (dpi < MIN_READING_DPI) {
    const [width, height] = [bounds[2] - bounds[0], bounds[3] - bounds[1]].map((side) => Math.round(side));
    // Kept as a page too complex to read (analysePage), the file goes on.
    throw new PageTooLargeError(`a ${width} x ${height} pt page`);
  }
  return { raster: renderPage(page, dpi, options) };
}

/** `dpi`, or lower when the page at `dpi` would have more than MAX_PAGE_PIXELS pixels. */
export function dpiWithinBudget(bounds: readonly number[], dpi: number): number {
  const pixels = (((bounds[2]! - bounds[0]!) * dpi) / 72) * (((bounds[3]! - bounds[1]!) * dpi) / 72);
  if (!(pixels > MAX_PAGE_PIXELS)) return dpi;
  return dpi * Math.sqrt(MAX_PAGE_PIXELS / pixels) * 0.999;
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
      data: lumaOfRgb(rgb, w * h),
      rgb: hasColour(rgb) ? rgb : undefined,
      dpi,
      source: 'rendered',
    } as PageRaster;
  } finally {
    pixmap.destroy();
  }
}

