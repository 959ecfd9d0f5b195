// What a JPEG's header says, read from its bytes without decoding: the segments before the
// image data (markers FFxx with their lengths, JPEG standard B.1.1).
import type { Orientation } from './raster';

export interface JpegSegment {
  /** The marker's second byte (0xE1 for APP1, 0xC0 for SOF0...). */
  marker: number;
  /** Offset of the marker's FF byte. */
  start: number;
  /** Offset just past the segment. */
  end: number;
}

/**
 * The segments from the start of the file up to (not including) the scan data; stops at the
 * first start-of-scan or at bytes that are no segment (a damaged header: what came before stands).
 */
export function jpegHeaderSegments(jpeg: Uint8Array): JpegSegment[] {
  const segments: JpegSegment[] = [];
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return segments;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) break;
    const marker = jpeg[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
    const end = at + 2 + length;
    if (length < 2 || end > jpeg.length) break;
    segments.push({ marker, start: at, end });
    at = end;
  }
  return segments;
}

/** Start-of-frame markers (every coding process; not DHT C4, JPG C8 or DAC CC). */
const START_OF_FRAME = new Set([
  0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf,
]);

/** How many colour components the image has (1 grey, 3 colour, 4 CMYK); null when no frame header is read. */
export function jpegComponents(jpeg: Uint8Array): number | null {
  const frame = jpegHeaderSegments(jpeg).find((segment) => START_OF_FRAME.has(segment.marker));
  // FF Cn, length (2), precision, height (2), width (2), then the number of components.
  return frame && frame.end > frame.start + 9 ? jpeg[frame.start + 9]! : null;
}

const APP0 = 0xe0;
const APP1 = 0xe1;
const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;

/** EXIF Orientation values for an image to be turned clockwise by 0, 90, 180, 270 degrees when shown. */
const ORIENTATION_FOR_TURN: Record<Orientation, number> = { 0: 1, 90: 6, 180: 3, 270: 8 };
/** Clockwise turn shown for each EXIF Orientation value (mirrored ones as their unmirrored turn). */
const TURN_FOR_ORIENTATION: Record<number, Orientation> = {
  1: 0,
  2: 0,
  3: 180,
  4: 180,
  5: 270,
  6: 90,
  7: 90,
  8: 270,
};

function isExif(jpeg: Uint8Array, segment: JpegSegment): boolean {
  return (
    segment.marker === APP1 && EXIF_ID.every((byte, i) => jpeg[segment.start + 4 + i] === byte)
  );
}

/**
 * How far the image is turned clockwise when shown, by its EXIF Orientation (browsers, image
 * viewers and libvips follow it; PDF does not); 0 without one.
 */
export function shownTurn(jpeg: Uint8Array): Orientation {
  for (const segment of jpegHeaderSegments(jpeg)) {
    if (!isExif(jpeg, segment)) continue;
    const tiff = segment.start + 10;
    const big = jpeg[tiff] === 0x4d; // "MM": big-endian; "II": little-endian
    const u16 = (at: number) =>
      at + 2 > segment.end
        ? -1
        : big
          ? (jpeg[at]! << 8) | jpeg[at + 1]!
          : jpeg[at]! | (jpeg[at + 1]! << 8);
    const u32 = (at: number) =>
      u16(at) < 0 || u16(at + 2) < 0
        ? -1
        : big
          ? u16(at) * 65536 + u16(at + 2)
          : u16(at + 2) * 65536 + u16(at);
    const ifd = tiff + u32(tiff + 4);
    const entries = u16(ifd);
    for (let i = 0; i < entries; i++) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) === ORIENTATION_TAG) return TURN_FOR_ORIENTATION[u16(entry + 8)] ?? 0;
    }
  }
  return 0;
}

/**
 * The JPEG with an EXIF Orientation that shows it turned clockwise by `turn`, in place of any
 * EXIF it had (a scanner's own orientation tag would otherwise turn it again): a turned scan is
 * kept as its own bytes, with no decoding or re-encoding. Unchanged (the same array) when there
 * is nothing to turn and no EXIF, or when the bytes do not start as a JPEG (nothing to write into).
 */
export function withShownTurn(jpeg: Uint8Array, turn: Orientation): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return jpeg;
  const segments = jpegHeaderSegments(jpeg);
  const exif = segments.filter((segment) => isExif(jpeg, segment));
  if (turn === 0 && exif.length === 0) return jpeg;
  // Big-endian TIFF header, one IFD with the Orientation tag (SHORT, 1 value), no next IFD.
  const value = ORIENTATION_FOR_TURN[turn];
  const payload = [
    ...EXIF_ID,
    0x4d,
    0x4d,
    0,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    value,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const segment = turn === 0 ? [] : [0xff, APP1, 0, payload.length + 2, ...payload];
  // After SOI and a JFIF APP0, which must come first.
  const jfif = segments[0]?.marker === APP0 ? segments[0] : null;
  const insertAt = jfif ? jfif.end : 2;
  const removed = exif.reduce((sum, s) => sum + s.end - s.start, 0);
  const out = new Uint8Array(jpeg.length - removed + segment.length);
  let written = 0;
  const copy = (from: number, to: number) => {
    out.set(jpeg.subarray(from, to), written);
    written += to - from;
  };
  copy(0, insertAt);
  out.set(segment, written);
  written += segment.length;
  let at = insertAt;
  for (const s of exif) {
    if (s.start < insertAt) continue;
    copy(at, s.start);
    at = s.end;
  }
  copy(at, jpeg.length);
  return out;
}
