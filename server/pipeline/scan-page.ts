// Step 1 of the scan pipeline, after mupdf (read-page) has read a page: the page's raster, with
// scan JPEGs decoded and turned pages put upright. The thread that has the PDF open reads each
// page with mupdf and hands a page worker what it read (LoadedPage); the worker decodes the JPEG
// with a mupdf of its own (decode-image), in WebAssembly memory it reuses page after page.
import { decodeJpeg, type ImageTurn } from './decode-image';
import { cornerCropSide } from './find-codes';
import type { GreyRaster } from './raster';

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

/** A page as far as mupdf reads it, its raster being decoded. */
export interface ScanPage {
  raster(): Promise<PageRaster>;
  /** Set when the page is exactly a scan JPEG placed upright on it. */
  jpeg?: UprightJpeg;
}

/**
 * A scan JPEG placed upright on its PDF page (whatever way the sheet was fed), and its top band:
 * when a code is read in one of the band's two corners, the rest of the page is not searched
 * (findCodeInTopBand) and the JPEG is kept as the page image.
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
 * A page as mupdf leaves it (read-page): its raster, or a scan JPEG still to be decoded.
 * Plain data, so it can be handed to a page worker (see transferablesOf).
 */
export type LoadedPage =
  | { raster: PageRaster }
  | { jpeg: Uint8Array; dpi: number; width: number; height: number }
  | { turnedJpeg: Uint8Array; turn: ImageTurn; dpi: number };

/** The whole page's raster of a loaded page. */
export function decodeLoaded(loaded: LoadedPage, options: ReadPageOptions): Promise<PageRaster> {
  // As a promise: a JPEG that does not decode makes the page unreadable, not its caller fail.
  return Promise.resolve().then(() => {
    if ('raster' in loaded) return loaded.raster;
    // A turned JPEG's bytes are not the page as shown, so they are not kept as the page image
    // (and it is grey: read-page hands turned colour scans over decoded).
    if ('turnedJpeg' in loaded) return decodeJpeg(loaded.turnedJpeg, loaded.turn, loaded.dpi, {});
    return { ...decodeJpeg(loaded.jpeg, UPRIGHT, loaded.dpi, options), jpeg: loaded.jpeg };
  });
}

const UPRIGHT: ImageTurn = { swapsAxes: false, flipColumns: false, flipRows: false };

/**
 * The page of a loaded page, its raster decoded now, so the next page decodes while this one is
 * searched. A scan JPEG that is exactly an upright page also gives its top band (see UprightJpeg):
 * the first rows of that raster, not a copy.
 */
export function scanPageOf(loaded: LoadedPage, options: ReadPageOptions = {}): ScanPage {
  const decoded = decodeLoaded(loaded, options);
  // Marked handled: the page's analysis sees the error when it asks for the raster.
  decoded.catch(() => undefined);
  if (!('jpeg' in loaded)) return { raster: () => decoded };
  const { jpeg, dpi, width, height } = loaded;
  const topRows = Math.min(height, cornerCropSide(width, height));
  const top = decoded.then((raster) => ({
    width: raster.width,
    height: Math.min(topRows, raster.height),
    data: raster.data.subarray(0, raster.width * Math.min(topRows, raster.height)),
  }));
  top.catch(() => undefined);
  return {
    raster: () => decoded,
    jpeg: { bytes: jpeg, width, height, dpi, top, topRows },
  };
}

/** The pixel and JPEG arrays of a loaded page (what is worth moving to a page worker). */
export function arraysOf(loaded: LoadedPage): (Uint8Array | undefined)[] {
  if ('raster' in loaded) return [loaded.raster.data, loaded.raster.rgb];
  return ['jpeg' in loaded ? loaded.jpeg : loaded.turnedJpeg];
}

