// The page image kept for people to look at: turned upright, JPEG, size capped. Upright pages
// that are the scan's own JPEG keep those bytes; others take one sharp pass, run off the main
// thread while the next page is being read.
import sharp from 'sharp';
import type { Orientation } from './raster';
import type { PageRaster } from './read-page';

export interface PageImageOptions {
  /**
   * Longest side in pixels of an image made here; bigger pages are scaled down. Default 2400 (A4
   * at 200 dpi fits without scaling). Also caps the scan's own JPEG kept as it came, when given.
   */
  maxSide?: number;
  /** JPEG quality. Default 80. */
  quality?: number;
}

/**
 * The scan's own upright JPEG is kept up to this size (A4 and Letter at 300 dpi): re-encoding a
 * big scan costs more time than its extra bytes cost disk.
 */
export const MAX_KEPT_SCAN_SIDE = 3600;

export interface PageImage {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/** `orientation` is how far the page is turned clockwise on the scan; null leaves it as scanned. */
export async function uprightPageImage(
  raster: PageRaster,
  orientation: Orientation | null,
  options: PageImageOptions = {},
): Promise<PageImage> {
  const maxSide = options.maxSide ?? 2400;
  // An upright page that is the scan's own JPEG is kept as it came: no decoding, no quality loss.
  const keptSide = options.maxSide ?? MAX_KEPT_SCAN_SIDE;
  if (!orientation && raster.jpeg && Math.max(raster.width, raster.height) <= keptSide) {
    return { jpeg: raster.jpeg, width: raster.width, height: raster.height };
  }
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
    .jpeg({ quality: options.quality ?? 80 })
    .toBuffer({ resolveWithObject: true });
  return {
    jpeg: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}
