// Is an uploaded file a photo of a page the pipeline can read? What kind of file it is comes from
// its first bytes (never its name or the browser's word); a photo's size from its header (sharp,
// with a pixel limit; HEIC through heic-decode, which sharp's prebuilt libvips cannot read).
// Run on a thread of its own (bounded-photo-check), as the PDF check is.
import { readFileSync, statSync } from 'node:fs';
import sharp from 'sharp';
import { schemaLimits } from '../../../generated/limits.js';
import { MAX_PHOTO_PIXELS, SHARP_READS_HEIC, type PhotoMediaType } from '../../pipeline/photo-page';

/** What an uploaded file is, by its first bytes. */
export type UploadedFileKind = 'pdf' | PhotoMediaType | 'other';

/** Photos in one upload, at most (UploadedPages in the contract). */
export const MAX_PHOTOS = schemaLimits.UploadedPages.maxItems;
/** A photo smaller than this on its shorter side is too small to read a code on. */
export const MIN_PHOTO_SIDE = 600;
/** One photo's bytes, at most: a 48 MP phone photo is some 25 MB as JPEG, 60 MB as PNG. */
export const MAX_PHOTO_BYTES = 150 * 1024 * 1024;

/** HEIF brands of still images (heic, heix: HEVC; mif1: any HEIF still image). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1', 'hevc', 'hevx']);

export function kindOfFile(head: Uint8Array): UploadedFileKind {
  const text = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (
    head.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => head[i] === byte)
  )
    return 'image/png';
  if (head.length >= 12 && text(4, 8) === 'ftyp' && HEIF_BRANDS.has(text(8, 12)))
    return 'image/heic';
  // A PDF's header may follow a little junk (readers allow it); the PDF check looks further.
  if (text(0, head.length).includes('%PDF-')) return 'pdf';
  return 'other';
}

export class PhotoCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhotoCheckError';
  }
}

export interface PhotoSize {
  width: number;
  height: number;
}

/** The photo's size in pixels; throws PhotoCheckError when it cannot be read or is too small. */
export async function checkPhoto(path: string, mediaType: PhotoMediaType): Promise<PhotoSize> {
  if (statSync(path).size > MAX_PHOTO_BYTES)
    throw new PhotoCheckError(`larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB`);
  let size: PhotoSize;
  try {
    size = mediaType === 'image/heic' && !SHARP_READS_HEIC ? await heicSize(path) : await sharpSize(path);
  } catch (error) {
    throw new PhotoCheckError(
      `it cannot be read (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (size.width * size.height > MAX_PHOTO_PIXELS)
    throw new PhotoCheckError(`too large: ${size.width} x ${size.height} pixels`);
  if (Math.min(size.width, size.height) < MIN_PHOTO_SIDE) {
    throw new PhotoCheckError(
      `too small to read: ${size.width} x ${size.height} pixels (at least ${MIN_PHOTO_SIDE} on its shorter side)`,
    );
  }
  return size;
}

async function sharpSize(path: string): Promise<PhotoSize> {
  const meta = await sharp(path, { limitInputPixels: MAX_PHOTO_PIXELS }).metadata();
  if (!meta.width || !meta.height) throw new Error('no image size in its header');
  return { width: meta.width, height: meta.height };
}

/** The HEIF container is read without decoding the picture. */
async function heicSize(path: string): Promise<PhotoSize> {
  const { default: decode } = await import('heic-decode');
  const images = await decode.all({ buffer: new Uint8Array(readFileSync(path)) });
  try {
    const first = images[0];
    if (!first) throw new Error('no image in it');
    return { width: first.width, height: first.height };
  } finally {
    images.dispose();
  }
}
