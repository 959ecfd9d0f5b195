// A page image's fingerprint: paper scanned twice is known by its image, not its bytes. The page
// is decoded small, turned straight (the skew of its lines), framed by its black ink (so a shift,
// a crop or another scanner's scale falls away) and kept as two bit planes on a 200x282 grid
// (strong ink, and any ink at all), about 1 mm a cell on a full A4 page. Two prints are the same
// paper when, aligned (the whole print, then each of 12 tiles by a cell), hardly any strong ink of
// one has no ink at or beside it in the other: the printed parts of one master explain each
// other, two students' answers do not. Known limit (bench/README.md): at this resolution some
// sheets of one master with sparse or faint writing are taken as one paper (7 of 528 pairs).
// Pages with little ink (MIN_PRINT_INK) are never the same paper. Pure: bytes in, bytes out.
import sharp from 'sharp';

export interface PageFingerprint {
  /** Compact prefilter hash, 256 bits as 32 bytes: Hamming distance says "maybe the same paper". */
  hash: Uint8Array;
  /** The detailed print used to decide (a small normalised image of the page, ≤ 16 KB). */
  print: Uint8Array;
}

/** Longest side of the decoded page the print is taken from (about 0.4 mm a pixel on A4). */
const WORK_SIDE = 720;
/** Grid of the print: the page's ink frame fitted in it, about 0.95 mm a cell on a full A4 page. */
export const PRINT_WIDTH = 200;
export const PRINT_HEIGHT = 282;
const WORDS_PER_ROW = Math.ceil(PRINT_WIDTH / 32);
const PLANE_WORDS = WORDS_PER_ROW * PRINT_HEIGHT;
const HEADER_BYTES = 16;
const PRINT_VERSION = 1;
/** Scanner shadows and the sheet's own edge: this share of the longest side is not looked at. */
const EDGE_SHARE = 0.008;
/** Darkness (paper 0, ink 1) of a cell that is surely ink, and of one that has any ink. */
const STRONG_INK = 0.16;
const ANY_INK = 0.06;
/** Fewer strong cells than this is too little ink to tell two papers apart: never the same. */
export const MIN_PRINT_INK = 600;
/**
 * Strong ink cells of either print with no ink within one cell in the other (isolated cells not
 * counted), at the best shift, up to which two prints are the same paper. Measured in bench/.
 */
export const MAX_UNEXPLAINED_INK = 1;
/** The prefilter: rescans measured ≤ 12 bits apart (bench/page-fingerprint.ts); twice that. */
export const HASH_CANDIDATE_DISTANCE = 24;
/** The whole print's shift searched between two prints, in cells, each way. */
const SHIFT_SEARCH = 2;
const MAX_SKEW_DEGREES = 3;

/** From a page image JPEG as the pipeline keeps it (may carry an EXIF orientation: apply it). */
export async function pageFingerprint(jpeg: Uint8Array): Promise<PageFingerprint> {
  // resize() lets libjpeg shrink while decoding (1/2, 1/4, 1/8): a 300 dpi page costs little more than a 100 dpi one.
  const { data, info } = await sharp(jpeg, { failOn: 'none' })
    .autoOrient()
    .greyscale()
    .resize({ width: WORK_SIDE, height: WORK_SIDE, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = info.width;
  const height = info.height;
  const grey = info.channels === 1 ? data : firstChannel(data, info.channels);
  const dark = darkness(grey, width, height);
  const skew = estimateSkew(dark, width, height);
  const frame = inkFrame(dark, width, height, skew);
  const grid = sampleGrid(dark, width, height, skew, frame);
  return { hash: gridHash(grid), print: encodePrint(grid, frame.cell / Math.max(width, height)) };
}

/** Prefilter: bits that differ between two hashes (cheap; used over thousands of candidates). */
export function hashDistance(a: Uint8Array, b: Uint8Array): number {
  let bits = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) bits += BYTE_BITS[a[i]! ^ b[i]!]!;
  return bits + 8 * Math.abs(a.length - b.length);
}

/** The decision: the same sheet of paper scanned again (true), or another sheet (false). */
export function samePaper(a: PageFingerprint, b: PageFingerprint): boolean {
  const score = unexplainedInk(a.print, b.print);
  return score !== null && score <= MAX_UNEXPLAINED_INK;
}

/**
 * Strong ink cells of either print with no ink of the other within one cell, at the best shift,
 * counting only cells that touch another such cell (scanner noise makes single cells); null when
 * either print has too little ink to decide, or is not a print.
 */
export function unexplainedInk(a: Uint8Array, b: Uint8Array): number | null {
  const pa = decodePrint(a);
  const pb = decodePrint(b);
  if (!pa || !pb || pa.strongCount < MIN_PRINT_INK || pb.strongCount < MIN_PRINT_INK) return null;
  const nearA = nearInk(pa.any);
  const nearB = nearInk(pb.any);
  const cost = (tile: Tile, dx: number, dy: number, step: number, limit: number) => {
    const one = tileUnexplained(pa.strong, nearB, tile, dx, dy, step, limit, null);
    return one > limit
      ? one
      : one + tileUnexplained(pb.strong, nearA, tile, -dx, -dy, step, limit - one, null);
  };
  // The whole print's shift first, then each tile's own around it: a sheet scanned at another
  // scale or skew is off by a cell or two more at one end than at the other.
  const whole = bestShift((dx, dy, limit) => cost(WHOLE, dx, dy, 3, limit), 0, 0, SHIFT_SEARCH);
  const unexplainedA = new Uint32Array(PLANE_WORDS);
  const unexplainedB = new Uint32Array(PLANE_WORDS);
  for (const tile of TILES) {
    const own = bestShift(
      (dx, dy, limit) => cost(tile, dx, dy, 1, limit),
      whole.dx,
      whole.dy,
      TILE_SHIFT_SEARCH,
    );
    tileUnexplained(pa.strong, nearB, tile, own.dx, own.dy, 1, Infinity, unexplainedA);
    tileUnexplained(pb.strong, nearA, tile, -own.dx, -own.dy, 1, Infinity, unexplainedB);
  }
  return clustered(unexplainedA) + clustered(unexplainedB);
}

interface Tile {
  r0: number;
  r1: number;
  /** The words of a row the tile's columns are in, and their bits. */
  i0: number;
  i1: number;
  masks: Uint32Array;
}

function makeTile(r0: number, r1: number, c0: number, c1: number): Tile {
  const masks = new Uint32Array(WORDS_PER_ROW);
  for (let c = c0; c < c1; c++) masks[c >> 5]! |= 1 << (c & 31);
  return { r0, r1, i0: c0 >> 5, i1: ((c1 - 1) >> 5) + 1, masks };
}

const TILE_ROWS = 4;
const TILE_COLUMNS = 3;
/** Each tile's shift searched around the whole print's, in cells. */
const TILE_SHIFT_SEARCH = 1;
const WHOLE = makeTile(0, PRINT_HEIGHT, 0, PRINT_WIDTH);
const TILES: Tile[] = [];
for (let ty = 0; ty < TILE_ROWS; ty++) {
  for (let tx = 0; tx < TILE_COLUMNS; tx++) {
    TILES.push(
      makeTile(
        Math.floor((ty * PRINT_HEIGHT) / TILE_ROWS),
        Math.floor(((ty + 1) * PRINT_HEIGHT) / TILE_ROWS),
        Math.floor((tx * PRINT_WIDTH) / TILE_COLUMNS),
        Math.floor(((tx + 1) * PRINT_WIDTH) / TILE_COLUMNS),
      ),
    );
  }
}

function bestShift(
  cost: (dx: number, dy: number, limit: number) => number,
  x0: number,
  y0: number,
  reach: number,
): { dx: number; dy: number } {
  let best = { dx: x0, dy: y0, cost: cost(x0, y0, Infinity) };
  for (let dy = y0 - reach; dy <= y0 + reach; dy++) {
    for (let dx = x0 - reach; dx <= x0 + reach; dx++) {
      if (dx === x0 && dy === y0) continue;
      const c = cost(dx, dy, best.cost);
      if (c < best.cost) best = { dx, dy, cost: c };
    }
  }
  return best;
}

// ---- decoding and normalising the page ----

function firstChannel(data: Uint8Array, channels: number): Uint8Array {
  const out = new Uint8Array(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!;
  return out;
}

/**
 * Darkness 0 (paper) to 255 (ink) from grey: paper is what most of the page is, ink its darkest
 * few pixels, with a floor on their distance so a near-blank page's noise is not blown up to ink.
 * The edge band is paper.
 */
function darkness(grey: Uint8Array, width: number, height: number): Uint8Array {
  const edge = Math.round(EDGE_SHARE * Math.max(width, height));
  const histogram = new Uint32Array(256);
  let count = 0;
  for (let y = edge; y < height - edge; y += 2) {
    for (let x = edge; x < width - edge; x += 2, count++) histogram[grey[y * width + x]!]!++;
  }
  const paper = percentile(histogram, count, 0.6);
  const ink = percentile(histogram, count, 0.004);
  const range = Math.max(paper - ink, 96);
  const out = new Uint8Array(width * height);
  const scale = 255 / range;
  for (let y = edge; y < height - edge; y++) {
    for (let x = edge; x < width - edge; x++) {
      const i = y * width + x;
      const d = (paper - grey[i]!) * scale;
      out[i] = d <= 0 ? 0 : d >= 255 ? 255 : d;
    }
  }
  return out;
}

function percentile(histogram: Uint32Array, count: number, share: number): number {
  const target = count * share;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= target) return v;
  }
  return 255;
}

interface InkPoints {
  x: Float32Array;
  y: Float32Array;
  w: Float32Array;
  length: number;
}

/** Pixels dark enough to be ink, with their darkness as weight. */
function inkPoints(dark: Uint8Array, width: number, height: number, min: number): InkPoints {
  let n = 0;
  for (let i = 0; i < dark.length; i++) if (dark[i]! >= min) n++;
  const points = {
    x: new Float32Array(n),
    y: new Float32Array(n),
    w: new Float32Array(n),
    length: n,
  };
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = dark[y * width + x]!;
      if (d < min) continue;
      points.x[k] = x;
      points.y[k] = y;
      points.w[k++] = d / 255;
    }
  }
  return points;
}

/**
 * The page's skew in degrees (clockwise positive): the angle at which its ink's rows are most
 * peaked (lines of print and writing). Searched coarse, then fine.
 */
function estimateSkew(dark: Uint8Array, width: number, height: number): number {
  const points = inkPoints(dark, width, height, 90);
  if (points.length < 50) return 0;
  const bins = new Float64Array(
    height + Math.ceil(width * Math.tan((MAX_SKEW_DEGREES * Math.PI) / 180)) * 2 + 4,
  );
  const offset = (bins.length - height) / 2;
  const peakedness = (degrees: number): number => {
    const t = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < points.length; i++) {
      // Shared between the two nearest rows: rounding would favour the pixel grid's own angle, 0.
      const at = points.y[i]! - points.x[i]! * t + offset;
      const row = Math.floor(at);
      const part = at - row;
      if (row >= 0 && row + 1 < bins.length) {
        bins[row]! += points.w[i]! * (1 - part);
        bins[row + 1]! += points.w[i]! * part;
      }
    }
    let sum = 0;
    for (let i = 0; i < bins.length; i++) sum += bins[i]! * bins[i]!;
    return sum;
  };
  let best = 0;
  let bestScore = -1;
  for (let a = -MAX_SKEW_DEGREES; a <= MAX_SKEW_DEGREES + 1e-9; a += 0.25) {
    const score = peakedness(a);
    if (score > bestScore) [best, bestScore] = [a, score];
  }
  const coarse = best;
  for (let a = coarse - 0.2; a <= coarse + 0.2 + 1e-9; a += 0.02) {
    const score = peakedness(a);
    if (score > bestScore) [best, bestScore] = [a, score];
  }
  return best;
}

interface Frame {
  /** Centre of the ink frame in straightened coordinates (around the image centre). */
  cx: number;
  cy: number;
  /** Work pixels per grid cell. */
  cell: number;
}

/** Quantile share of the ink trimmed off each side of the frame (a speck of dirt does not move it). */
const FRAME_TRIM = 0.003;
/** Darkness of the ink that frames the page: black print, not the grey lines and small grey text that a blur or a light scan loses. */
const FRAME_INK = 128;

/** The frame of the page's dark ink once straightened, trimmed of stray specks; the grid is fitted to it. */
function inkFrame(dark: Uint8Array, width: number, height: number, skew: number): Frame {
  const points = inkPoints(dark, width, height, FRAME_INK);
  const side = Math.max(width, height);
  // Never magnify a little ink past half the page: the cell stays at least this big.
  const minCell = side / PRINT_HEIGHT / 2;
  if (points.length < 20) return { cx: 0, cy: 0, cell: side / PRINT_HEIGHT };
  const cos = Math.cos((skew * Math.PI) / 180);
  const sin = Math.sin((skew * Math.PI) / 180);
  const ox = width / 2;
  const oy = height / 2;
  const reach = Math.ceil(side * 0.75);
  const columns = new Float64Array(2 * reach);
  const rows = new Float64Array(2 * reach);
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const x = points.x[i]! - ox;
    const y = points.y[i]! - oy;
    const w = points.w[i]!;
    columns[Math.round(x * cos + y * sin) + reach]! += w;
    rows[Math.round(-x * sin + y * cos) + reach]! += w;
    total += w;
  }
  const [left, right] = trimmedRange(columns, total);
  const [top, bottom] = trimmedRange(rows, total);
  const cell =
    Math.max((right - left) / PRINT_WIDTH, (bottom - top) / PRINT_HEIGHT, minCell) * 1.04;
  return { cx: (left + right) / 2 - reach, cy: (top + bottom) / 2 - reach, cell };
}

/** Where (fractional, bin edges) the cumulative weight passes the trim share from each end. */
function trimmedRange(bins: Float64Array, total: number): [number, number] {
  const cut = total * FRAME_TRIM;
  let low = 0;
  for (let i = 0, seen = 0; i < bins.length; i++) {
    if (seen + bins[i]! >= cut) {
      low = i - 0.5 + (cut - seen) / bins[i]!;
      break;
    }
    seen += bins[i]!;
  }
  let high = bins.length;
  for (let i = bins.length - 1, seen = 0; i >= 0; i--) {
    if (seen + bins[i]! >= cut) {
      high = i + 0.5 - (cut - seen) / bins[i]!;
      break;
    }
    seen += bins[i]!;
  }
  return [low, high];
}

/** Mean darkness (0..1) of each grid cell, the straightened frame fitted in the grid. */
function sampleGrid(
  dark: Uint8Array,
  width: number,
  height: number,
  skew: number,
  frame: Frame,
): Float32Array {
  const grid = new Float32Array(PRINT_WIDTH * PRINT_HEIGHT);
  const cos = Math.cos((skew * Math.PI) / 180);
  const sin = Math.sin((skew * Math.PI) / 180);
  const ox = width / 2;
  const oy = height / 2;
  const k = Math.max(2, Math.ceil(frame.cell));
  const step = frame.cell / k;
  for (let v = 0; v < PRINT_HEIGHT; v++) {
    for (let u = 0; u < PRINT_WIDTH; u++) {
      let sum = 0;
      for (let j = 0; j < k; j++) {
        const yr = frame.cy + (v - PRINT_HEIGHT / 2) * frame.cell + (j + 0.5) * step;
        for (let i = 0; i < k; i++) {
          const xr = frame.cx + (u - PRINT_WIDTH / 2) * frame.cell + (i + 0.5) * step;
          sum += bilinear(dark, width, height, ox + xr * cos - yr * sin, oy + xr * sin + yr * cos);
        }
      }
      grid[v * PRINT_WIDTH + u] = sum / (k * k * 255);
    }
  }
  return grid;
}

function bilinear(dark: Uint8Array, width: number, height: number, x: number, y: number): number {
  const x0 = Math.floor(x - 0.5);
  const y0 = Math.floor(y - 0.5);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) return 0;
  const fx = x - 0.5 - x0;
  const fy = y - 0.5 - y0;
  const i = y0 * width + x0;
  const top = dark[i]! + (dark[i + 1]! - dark[i]!) * fx;
  const bottom = dark[i + width]! + (dark[i + width + 1]! - dark[i + width]!) * fx;
  return top + (bottom - top) * fy;
}

// ---- the prefilter hash ----

const HASH_SIDE = 32;
const HASH_KEEP = 16;

/** 256 bits: the low 16x16 frequencies of the grid (a 32x32 DCT), each above or below their median. */
function gridHash(grid: Float32Array): Uint8Array {
  const small = new Float64Array(HASH_SIDE * HASH_SIDE);
  for (let v = 0; v < PRINT_HEIGHT; v++) {
    const sy = Math.floor((v * HASH_SIDE) / PRINT_HEIGHT);
    for (let u = 0; u < PRINT_WIDTH; u++) {
      small[sy * HASH_SIDE + Math.floor((u * HASH_SIDE) / PRINT_WIDTH)]! +=
        grid[v * PRINT_WIDTH + u]!;
    }
  }
  const cosines = dctTable();
  const rowsDone = new Float64Array(HASH_SIDE * HASH_KEEP);
  for (let y = 0; y < HASH_SIDE; y++) {
    for (let f = 0; f < HASH_KEEP; f++) {
      let sum = 0;
      for (let x = 0; x < HASH_SIDE; x++)
        sum += small[y * HASH_SIDE + x]! * cosines[f * HASH_SIDE + x]!;
      rowsDone[y * HASH_KEEP + f] = sum;
    }
  }
  const coefficients = new Float64Array(HASH_KEEP * HASH_KEEP);
  for (let g = 0; g < HASH_KEEP; g++) {
    for (let f = 0; f < HASH_KEEP; f++) {
      let sum = 0;
      for (let y = 0; y < HASH_SIDE; y++)
        sum += rowsDone[y * HASH_KEEP + f]! * cosines[g * HASH_SIDE + y]!;
      coefficients[g * HASH_KEEP + f] = sum;
    }
  }
  const sorted = Array.from(coefficients.subarray(1)).sort((p, q) => p - q);
  const median = sorted[sorted.length >> 1]!;
  const hash = new Uint8Array((HASH_KEEP * HASH_KEEP) / 8);
  for (let i = 0; i < coefficients.length; i++)
    if (coefficients[i]! > median) hash[i >> 3]! |= 1 << (i & 7);
  return hash;
}

let cosineTable: Float64Array | null = null;
function dctTable(): Float64Array {
  if (!cosineTable) {
    cosineTable = new Float64Array(HASH_KEEP * HASH_SIDE);
    for (let f = 0; f < HASH_KEEP; f++) {
      for (let x = 0; x < HASH_SIDE; x++)
        cosineTable[f * HASH_SIDE + x] = Math.cos(((2 * x + 1) * f * Math.PI) / (2 * HASH_SIDE));
    }
  }
  return cosineTable;
}

const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, v) => {
  let bits = 0;
  for (let x = v; x; x >>= 1) bits += x & 1;
  return bits;
});

// ---- the print: two bit planes ----

interface DecodedPrint {
  strong: Uint32Array;
  any: Uint32Array;
  strongCount: number;
}

/** Header (version, grid size, strong cells, cell size) then the strong plane and the any-ink plane, rows of 32-bit words. */
function encodePrint(grid: Float32Array, cellShare: number): Uint8Array {
  const strong = new Uint32Array(PLANE_WORDS);
  const any = new Uint32Array(PLANE_WORDS);
  let strongCount = 0;
  for (let v = 0; v < PRINT_HEIGHT; v++) {
    for (let u = 0; u < PRINT_WIDTH; u++) {
      const d = grid[v * PRINT_WIDTH + u]!;
      const word = v * WORDS_PER_ROW + (u >> 5);
      const bit = 1 << (u & 31);
      if (d >= ANY_INK) any[word]! |= bit;
      if (d >= STRONG_INK) {
        strong[word]! |= bit;
        strongCount++;
      }
    }
  }
  const bytes = new Uint8Array(HEADER_BYTES + 8 * PLANE_WORDS);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, PRINT_VERSION);
  view.setUint16(2, PRINT_WIDTH, true);
  view.setUint16(4, PRINT_HEIGHT, true);
  view.setUint32(8, strongCount, true);
  view.setFloat32(12, cellShare, true);
  for (let i = 0; i < PLANE_WORDS; i++) {
    view.setUint32(HEADER_BYTES + 4 * i, strong[i]!, true);
    view.setUint32(HEADER_BYTES + 4 * (PLANE_WORDS + i), any[i]!, true);
  }
  return bytes;
}

function decodePrint(bytes: Uint8Array): DecodedPrint | null {
  if (bytes.length !== HEADER_BYTES + 8 * PLANE_WORDS) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    view.getUint8(0) !== PRINT_VERSION ||
    view.getUint16(2, true) !== PRINT_WIDTH ||
    view.getUint16(4, true) !== PRINT_HEIGHT
  )
    return null;
  const strong = new Uint32Array(PLANE_WORDS);
  const any = new Uint32Array(PLANE_WORDS);
  for (let i = 0; i < PLANE_WORDS; i++) {
    strong[i] = view.getUint32(HEADER_BYTES + 4 * i, true);
    any[i] = view.getUint32(HEADER_BYTES + 4 * (PLANE_WORDS + i), true);
  }
  return { strong, any, strongCount: view.getUint32(8, true) };
}

/** Every cell with ink in it or beside, above or below it (a 3x3 square let two hands' writing on one line explain each other). */
function nearInk(plane: Uint32Array): Uint32Array {
  const out = new Uint32Array(PLANE_WORDS);
  for (let r = 0; r < PRINT_HEIGHT; r++) {
    for (let i = 0; i < WORDS_PER_ROW; i++) {
      const at = r * WORDS_PER_ROW + i;
      const w = plane[at]!;
      const before = i > 0 ? plane[at - 1]! : 0;
      const after = i + 1 < WORDS_PER_ROW ? plane[at + 1]! : 0;
      out[at] =
        w |
        (w << 1) |
        (before >>> 31) |
        (w >>> 1) |
        (after << 31) |
        (r > 0 ? plane[at - WORDS_PER_ROW]! : 0) |
        (r + 1 < PRINT_HEIGHT ? plane[at + WORDS_PER_ROW]! : 0);
    }
  }
  return out;
}

/** Word i of row r of `plane` moved by (dx, dy) cells; 0 outside the grid. */
function shiftedWord(plane: Uint32Array, r: number, i: number, dx: number, dy: number): number {
  const sr = r - dy;
  if (sr < 0 || sr >= PRINT_HEIGHT) return 0;
  const row = sr * WORDS_PER_ROW;
  const w = plane[row + i]!;
  if (dx === 0) return w;
  if (dx > 0) return (w << dx) | (i > 0 ? plane[row + i - 1]! >>> (32 - dx) : 0);
  return (w >>> -dx) | (i + 1 < WORDS_PER_ROW ? plane[row + i + 1]! << (32 + dx) : 0);
}

/**
 * Strong cells of `ink` in the tile not covered by `near` moved by (dx, dy), every `step`-th row;
 * stops past `limit`. With `out`, the cells are also set there.
 */
function tileUnexplained(
  ink: Uint32Array,
  near: Uint32Array,
  tile: Tile,
  dx: number,
  dy: number,
  step: number,
  limit: number,
  out: Uint32Array | null,
): number {
  let count = 0;
  for (let r = tile.r0; r < tile.r1; r += step) {
    const row = r * WORDS_PER_ROW;
    for (let i = tile.i0; i < tile.i1; i++) {
      const w = ink[row + i]! & tile.masks[i]!;
      if (w === 0) continue;
      const u = w & ~shiftedWord(near, r, i, dx, dy);
      if (u === 0) continue;
      count += popcount(u);
      if (out) out[row + i]! |= u;
    }
    if (count > limit) return count;
  }
  return count;
}

/** Set cells with another set cell among their 8 neighbours (scanner noise makes single cells). */
function clustered(plane: Uint32Array): number {
  let count = 0;
  for (let r = 0; r < PRINT_HEIGHT; r++) {
    for (let i = 0; i < WORDS_PER_ROW; i++) {
      const at = r * WORDS_PER_ROW + i;
      const u = plane[at]!;
      if (u === 0) continue;
      const before = i > 0 ? plane[at - 1]! : 0;
      const after = i + 1 < WORDS_PER_ROW ? plane[at + 1]! : 0;
      const sideways = (u << 1) | (before >>> 31) | (u >>> 1) | (after << 31);
      const vertical =
        (r > 0 ? neighbourRow(plane, at - WORDS_PER_ROW, i) : 0) |
        (r + 1 < PRINT_HEIGHT ? neighbourRow(plane, at + WORDS_PER_ROW, i) : 0);
      count += popcount(u & (sideways | vertical));
    }
  }
  return count;
}

/** The 3-wide horizontal dilation of a row's word (the row above or below a cell). */
function neighbourRow(plane: Uint32Array, at: number, i: number): number {
  const w = plane[at]!;
  const before = i > 0 ? plane[at - 1]! : 0;
  const after = i + 1 < WORDS_PER_ROW ? plane[at + 1]! : 0;
  return w | (w << 1) | (before >>> 31) | (w >>> 1) | (after << 31);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
