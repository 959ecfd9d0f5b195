// The page image kept for people to look at: a JPEG shown upright, size capped. Pages that are
// the scan's own JPEG keep those bytes, a turned one with an EXIF orientation that shows it
// upright (scanJpegPageImage); others take one sharp pass, run off the main thread while the
// next page is being read.
import sharp from 'sharp';
import { withShownTurn } from './jpeg-header';
import type { Orientation } from './raster';
import type { PageRaster } from './raster';

export interface PageImageOptions {
  /**
   * Longest side in pixels of the page image; bigger pages are scaled down. Default
   * MAX_KEPT_SCAN_SIDE. Also caps the scan's own JPEG kept as it came.
   */
  maxSide?: number;
  /** JPEG quality. Default 80. */
  quality?: number;
}

/**
 * Page images keep the scan's resolution up to this size (A4 and Letter at 300 dpi): scaling and
 * re-encoding a big scan costs more time than its extra bytes cost disk (a turned 300-dpi page:
 * 26 ms scaled to 2400 px, 11 ms kept whole), and the scan's own upright JPEG is kept as it came.
 */
export const MAX_KEPT_SCAN_SIDE = 3600;

export interface PageImage {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/** Whether an upright scan JPEG of this size is kept as the page image as it came. */
export function keepsScanJpeg(
  size: { width: number; height: number },
  options: PageImageOptions = {},
): boolean {
  return Math.max(size.width, size.height) <= (options.maxSide ?? MAX_KEPT_SCAN_SIDE);
}

/**
 * A page that is exactly the scan's own JPEG keeps those bytes as its image: no decoding, no
 * quality loss. A turned page is not turned and encoded again (some 30 ms for a 200-dpi page, and
 * a second round of JPEG loss): its EXIF orientation shows it upright wherever it is shown
 * (browsers, libvips for thumbnails, drawScan in PDFs). `width` and `height` are as shown.
 */
export function scanJpegPageImage(
  jpeg: Uint8Array,
  size: { width: number; height: number },
  orientation: Orientation | null,
): PageImage {
  // Turned clockwise on the scan: shown turned back, clockwise by the rest of a full turn.
  const turn = ((360 - (orientation ?? 0)) % 360) as Orientation;
  const sideways = turn === 90 || turn === 270;
  return {
    jpeg: withShownTurn(jpeg, turn),
    width: sideways ? size.height : size.width,
    height: sideways ? size.width : size.height,
  };
}

/** `orientation` is how far the page is turned clockwise on the scan; null leaves it as scanned. */
export async function uprightPageImage(
  raster: PageRaster,
  orientation: Orientation | null,
  options: PageImageOptions = {},
): Promise<PageImage> {
  const maxSide = options.maxSide ?? MAX_KEPT_SCAN_SIDE;
  if (raster.jpeg && keepsScanJpeg(raster, options))
    return scanJpegPageImage(raster.jpeg, raster, orientation);
  const channels = raster.rgb ? 3 : 1;
  const pixels = raster.rgb ?? raster.data;
  let image = sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), {
    raw: { width: raster.width, height: raster.height, channels },
  });
  const turn = orientation ? (360 - orientation) % 360 : 0;
  if (turn) image = image.rotate(turn);
  if (Math.max(raster.width, raster.height) > maxSide)
    image = image.resize({ width: maxSide, height: maxSide, fit: 'inside' });
  if (channels === 1) image = image.toColourspace('b-w');
  const { data, info } = await image
    // Optimised Huffman tables save 7% of the bytes for a second pass over the image (+50% time).
    .jpeg({ quality: options.quality ?? 80, optimiseCoding: false })
    .toBuffer({ resolveWithObject: true });
  return {
    jpeg: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}
