// A page image's fingerprint: paper scanned twice is known by its image, not its bytes. The page
// is decoded small, turned straight (the skew of its lines), framed by its black ink (so a shift,
// a crop or another scanner's scale falls away; specks of dust are no ink) and kept as two bit planes on a 200x282 grid
// (strong ink, and any ink at all), about 1 mm a cell on a full A4 page. Two prints are the same
// paper when, aligned (the whole print, then each of 12 tiles by a cell), hardly any strong ink of
// one has no ink at or beside it in the other: the printed parts of one master explain each
// other, two students' answers do not.
//
// At 1 mm a cell that alone is not enough: two students' names on the same line cover the same
// cells within the cell a rescan needs (bench/README.md: 3 of 528 sheet pairs). So a pair the
// coarse print calls the same paper (rare: rescans, and those few) is confirmed by a fine print
// kept beside it: the same page decoded larger, through the same skew and frame, 3x3 cells to a
// coarse cell (about 0.32 mm), its cores of strokes and its any ink, each of 48 tiles aligned
// within a coarse cell around its coarse tile's shift. A rescan leaves nothing unexplained; two
// hands leave a hundred cells and more. Both prints are deflated in one value (mostly paper).
// Prints stored before the fine print (version 1) are still read: a pair where either lacks it
// has the coarse decision alone. Prints of versions 1 and 2 trimmed their frame by a share of the
// ink, which one glyph beside a sticky note could sit at: it moved the frame by a tenth of the
// page from one scan to the next. They are compared only with each other, and made again from
// their page images (workflow/refresh-page-prints.ts). Pages with little ink (MIN_PRINT_INK) are
// never the same paper.
// Pure: bytes in, bytes out.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import sharp from 'sharp';

export interface PageFingerprint {
  /** Compact prefilter hash, 256 bits as 32 bytes: Hamming distance says "maybe the same paper". */
  hash: Uint8Array;
  /**
   * The detailed prints used to decide, coarse and fine: small normalised images of the page,
   * deflated (12 KB on average, at most 24 KB in bench/).
   */
  print: Uint8Array;
}

/** Longest side of the decoded page the print is taken from (about 0.4 mm a pixel on A4). */
const WORK_SIDE = 720;
/** Grid of the print: the page's ink frame fitted in it, about 0.95 mm a cell on a full A4 page. */
export const PRINT_WIDTH = 200;
export const PRINT_HEIGHT = 282;
const COARSE = layout(PRINT_WIDTH, PRINT_HEIGHT);
const WORDS_PER_ROW = COARSE.words;
const PLANE_WORDS = WORDS_PER_ROW * PRINT_HEIGHT;
const HEADER_BYTES = 20;
/**
 * 1: the coarse planes alone (pages stored before the fine print); 2: both, deflated; 3: the same,
 * framed without specks and trimmed far less (a lone glyph at an edge no longer comes and goes).
 */
export const PRINT_VERSION = 3;
const V1_HEADER_BYTES = 16;
const V1_BYTES = V1_HEADER_BYTES + 8 * PLANE_WORDS;

/** The fine print: the same frame, FINE x FINE cells to a coarse cell (about 0.32 mm on A4). */
const FINE = 3;
const FINE_GRID = layout(FINE * PRINT_WIDTH, FINE * PRINT_HEIGHT);
const FINE_PLANE_WORDS = FINE_GRID.words * FINE_GRID.height;
/** Longest side of the page decoded for the fine print (about 0.2 mm a pixel on A4). */
const FINE_WORK_SIDE = 1440;
/** Fine cells this dark are the core of a stroke: a blurred scan widens strokes, not their core. */
const FINE_STRONG_INK = 0.35;
/**
 * Strong fine cells of either print with no ink within one fine cell of the other, clustered, up
 * to which the fine print confirms the coarse decision. Measured in bench/ (two seeds): every
 * rescan 0, different students' sheets the coarse print took for one paper from 53.
 */
export const MAX_FINE_UNEXPLAINED = 20;
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
  const { dark, width, height } = await decodeDarkness(jpeg, WORK_SIDE);
  const skew = estimateSkew(dark, width, height);
  const frame = inkFrame(dark, width, height, skew);
  const grid = sampleGrid(dark, width, height, skew, frame, COARSE);
  // The fine print: the page decoded larger, the same skew and frame (scaled), smaller cells.
  const large = await decodeDarkness(jpeg, FINE_WORK_SIDE);
  const ratio = large.width / width;
  const fineFrame = {
    cx: frame.cx * ratio,
    cy: frame.cy * ratio,
    cell: (frame.cell * ratio) / FINE,
  };
  const fine = sampleGrid(large.dark, large.width, large.height, skew, fineFrame, FINE_GRID);
  return {
    hash: gridHash(grid),
    print: encodePrint(grid, fine, frame.cell / Math.max(width, height)),
  };
}

/** The page upright, grey, fitted in `side` pixels, as darkness (paper 0, ink 255). */
async function decodeDarkness(
  jpeg: Uint8Array,
  side: number,
): Promise<{ dark: Uint8Array; width: number; height: number }> {
  // resize() lets libjpeg shrink while decoding (1/2, 1/4, 1/8): a 300 dpi page costs little more than a 100 dpi one.
  const { data, info } = await sharp(jpeg, { failOn: 'none' })
    .autoOrient()
    .greyscale()
    .resize({ width: side, height: side, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = info.channels === 1 ? data : firstChannel(data, info.channels);
  return { dark: darkness(grey, info.width, info.height), width: info.width, height: info.height };
}

/** Prefilter: bits that differ between two hashes (cheap; used over thousands of candidates). */
export function hashDistance(a: Uint8Array, b: Uint8Array): number {
  let bits = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) bits += BYTE_BITS[a[i]! ^ b[i]!]!;
  return bits + 8 * Math.abs(a.length - b.length);
}

/**
 * The decision: the same sheet of paper scanned again (true), or another sheet (false). The coarse
 * print decides no; a yes is confirmed by the fine print when both pages have one.
 */
export function samePaper(a: PageFingerprint, b: PageFingerprint): boolean {
  const pa = decodePrint(a.print);
  const pb = decodePrint(b.print);
  if (!pa || !pb) return false;
  const coarse = compareCoarse(pa, pb);
  if (coarse === null || coarse.score > MAX_UNEXPLAINED_INK) return false;
  // Prints framed one way cannot be laid over prints framed the other.
  if (framedBySpread(pa) !== framedBySpread(pb)) return false;
  // Pages stored before the fine print (version 1) have the coarse decision alone.
  if (!pa.finePacked || !pb.finePacked) return true;
  const fineA = inflated(pa.finePacked, FINE_PLANE_WORDS);
  const fineB = inflated(pb.finePacked, FINE_PLANE_WORDS);
  return (
    fineA !== null &&
    fineB !== null &&
    compareFine(fineA, fineB, coarse.shifts) <= MAX_FINE_UNEXPLAINED
  );
}

/**
 * Strong ink cells of either print with no ink of the other within one cell, at the best shift,
 * counting only cells that touch another such cell (scanner noise makes single cells); null when
 * either print has too little ink to decide, or is not a print.
 */
export function unexplainedInk(a: Uint8Array, b: Uint8Array): number | null {
  const pa = decodePrint(a);
  const pb = decodePrint(b);
  return pa && pb ? (compareCoarse(pa, pb)?.score ?? null) : null;
}

/**
 * The fine stage's score for two prints the coarse stage aligned (null when either has no fine
 * print or too little ink): strong fine cells of either with no ink within one fine cell of the
 * other, clustered.
 */
export function fineUnexplained(a: Uint8Array, b: Uint8Array): number | null {
  const pa = decodePrint(a);
  const pb = decodePrint(b);
  if (!pa?.finePacked || !pb?.finePacked) return null;
  const fineA = inflated(pa.finePacked, FINE_PLANE_WORDS);
  const fineB = inflated(pb.finePacked, FINE_PLANE_WORDS);
  const coarse = compareCoarse(pa, pb);
  return coarse && fineA && fineB ? compareFine(fineA, fineB, coarse.shifts) : null;
}

interface Shift {
  dx: number;
  dy: number;
}

/** The coarse score, and the shift each tile was aligned with (TILES' order). */
function compareCoarse(
  pa: DecodedPrint,
  pb: DecodedPrint,
): { score: number; shifts: Shift[] } | null {
  if (pa.strongCount < MIN_PRINT_INK || pb.strongCount < MIN_PRINT_INK) return null;
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
  const shifts: Shift[] = [];
  for (const tile of TILES) {
    const own = bestShift(
      (dx, dy, limit) => cost(tile, dx, dy, 1, limit),
      whole.dx,
      whole.dy,
      TILE_SHIFT_SEARCH,
    );
    shifts.push(own);
    tileUnexplained(pa.strong, nearB, tile, own.dx, own.dy, 1, Infinity, unexplainedA);
    tileUnexplained(pb.strong, nearA, tile, -own.dx, -own.dy, 1, Infinity, unexplainedB);
  }
  return { score: clustered(unexplainedA) + clustered(unexplainedB), shifts };
}

interface Tile {
  r0: number;
  r1: number;
  /** The words of a row the tile's columns are in, and their bits. */
  i0: number;
  i1: number;
  masks: Uint32Array;
}

function makeTile(r0: number, r1: number, c0: number, c1: number, at: Layout = COARSE): Tile {
  const masks = new Uint32Array(at.words);
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

/** Fine tiles: smaller than the coarse ones, so a scale or skew left over moves each less. */
const FINE_TILE_ROWS = 8;
const FINE_TILE_COLUMNS = 6;
/** Each fine tile's shift searched around its coarse tile's (scaled), in fine cells. */
const FINE_SHIFT_SEARCH = FINE;
const FINE_TILES: { tile: Tile; coarse: number }[] = [];
for (let ty = 0; ty < FINE_TILE_ROWS; ty++) {
  for (let tx = 0; tx < FINE_TILE_COLUMNS; tx++) {
    const r0 = Math.floor((ty * FINE_GRID.height) / FINE_TILE_ROWS);
    const r1 = Math.floor(((ty + 1) * FINE_GRID.height) / FINE_TILE_ROWS);
    const c0 = Math.floor((tx * FINE_GRID.width) / FINE_TILE_COLUMNS);
    const c1 = Math.floor(((tx + 1) * FINE_GRID.width) / FINE_TILE_COLUMNS);
    // The coarse tile the fine tile's centre is in.
    const cy = Math.floor(((r0 + r1) / 2 / FINE_GRID.height) * TILE_ROWS);
    const cx = Math.floor(((c0 + c1) / 2 / FINE_GRID.width) * TILE_COLUMNS);
    FINE_TILES.push({ tile: makeTile(r0, r1, c0, c1, FINE_GRID), coarse: cy * TILE_COLUMNS + cx });
  }
}

/** Strong fine cells of either print unexplained by the other, each fine tile at its best shift. */
function compareFine(pa: Planes, pb: Planes, coarseShifts: Shift[]): number {
  const nearA = nearInk(pa.any, FINE_GRID);
  const nearB = nearInk(pb.any, FINE_GRID);
  const unexplainedA = new Uint32Array(FINE_PLANE_WORDS);
  const unexplainedB = new Uint32Array(FINE_PLANE_WORDS);
  for (const { tile, coarse } of FINE_TILES) {
    const cost = (dx: number, dy: number, limit: number) => {
      const one = tileUnexplained(pa.strong, nearB, tile, dx, dy, 1, limit, null, FINE_GRID);
      return one > limit
        ? one
        : one + tileUnexplained(pb.strong, nearA, tile, -dx, -dy, 1, limit - one, null, FINE_GRID);
    };
    const around = coarseShifts[coarse]!;
    const own = bestShift(cost, FINE * around.dx, FINE * around.dy, FINE_SHIFT_SEARCH);
    tileUnexplained(pa.strong, nearB, tile, own.dx, own.dy, 1, Infinity, unexplainedA, FINE_GRID);
    tileUnexplained(pb.strong, nearA, tile, -own.dx, -own.dy, 1, Infinity, unexplainedB, FINE_GRID);
  }
  return clustered(unexplainedA, FINE_GRID) + clustered(unexplainedB, FINE_GRID);
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

/**
 * Quantile share of the frame's ink trimmed off each side. Small: specks are left out before (a
 * larger share sat near the weight of one glyph, so a glyph at the page's edge, say beside a
 * sticky note, was in the frame on one scan and out on the next).
 */
const FRAME_TRIM = 0.0005;
/** Ink pixels joined to fewer others than this are specks (dust, noise), not print: about 1 mm² at the work size. */
const FRAME_BLOB_PIXELS = 8;
/** Darkness of the ink that frames the page: black print, not the grey lines and small grey text that a blur or a light scan loses. */
const FRAME_INK = 128;

/** The frame of the page's dark ink once straightened, without specks; the grid is fitted to it. */
function inkFrame(dark: Uint8Array, width: number, height: number, skew: number): Frame {
  const points = inkPoints(withoutSpecks(dark, width, height, FRAME_INK), width, height, FRAME_INK);
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

/** `dark` with every patch of ink (8-connected, at least `min` dark) smaller than FRAME_BLOB_PIXELS cleared. */
function withoutSpecks(dark: Uint8Array, width: number, height: number, min: number): Uint8Array {
  const out = dark.slice();
  const seen = new Uint8Array(dark.length);
  const patch: number[] = [];
  for (let start = 0; start < dark.length; start++) {
    if (seen[start] || dark[start]! < min) continue;
    patch.length = 0;
    patch.push(start);
    seen[start] = 1;
    for (let k = 0; k < patch.length; k++) {
      const i = patch[k]!;
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (seen[j] || dark[j]! < min) continue;
          seen[j] = 1;
          patch.push(j);
        }
      }
    }
    if (patch.length < FRAME_BLOB_PIXELS) for (const i of patch) out[i] = 0;
  }
  return out;
}

/** Mean darkness (0..1) of each grid cell, the straightened frame fitted in the grid. */
function sampleGrid(
  dark: Uint8Array,
  width: number,
  height: number,
  skew: number,
  frame: Frame,
  at: Layout,
): Float32Array {
  const grid = new Float32Array(at.width * at.height);
  const cos = Math.cos((skew * Math.PI) / 180);
  const sin = Math.sin((skew * Math.PI) / 180);
  const ox = width / 2;
  const oy = height / 2;
  const k = Math.max(2, Math.ceil(frame.cell));
  const step = frame.cell / k;
  for (let v = 0; v < at.height; v++) {
    for (let u = 0; u < at.width; u++) {
      let sum = 0;
      for (let j = 0; j < k; j++) {
        const yr = frame.cy + (v - at.height / 2) * frame.cell + (j + 0.5) * step;
        for (let i = 0; i < k; i++) {
          const xr = frame.cx + (u - at.width / 2) * frame.cell + (i + 0.5) * step;
          sum += bilinear(dark, width, height, ox + xr * cos - yr * sin, oy + xr * sin + yr * cos);
        }
      }
      grid[v * at.width + u] = sum / (k * k * 255);
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

// ---- the print: two bit planes, coarse then fine ----

/** A grid's strong-ink cells and any-ink cells, a bit each, rows of 32-bit words. */
interface Planes {
  strong: Uint32Array;
  any: Uint32Array;
}

interface DecodedPrint extends Planes {
  version: number;
  strongCount: number;
  /** The fine planes, deflated (inflated only when the coarse planes say the same paper); null in a version 1 print. */
  finePacked: Uint8Array | null;
}

/** A grid of darkness as its strong-ink plane and its any-ink plane. */
function planes(
  grid: Float32Array,
  at: Layout,
  strongInk: number,
): Planes & { strongCount: number } {
  const strong = new Uint32Array(at.words * at.height);
  const any = new Uint32Array(at.words * at.height);
  let strongCount = 0;
  for (let v = 0; v < at.height; v++) {
    for (let u = 0; u < at.width; u++) {
      const d = grid[v * at.width + u]!;
      const word = v * at.words + (u >> 5);
      const bit = 1 << (u & 31);
      if (d >= ANY_INK) any[word]! |= bit;
      if (d >= strongInk) {
        strong[word]! |= bit;
        strongCount++;
      }
    }
  }
  return { strong, any, strongCount };
}

/**
 * Header (version, grid size, strong cells, cell size, length of the next part), the coarse planes
 * deflated, then the fine planes deflated: mostly paper, some 4 + 11 KB. Version 1 (pages stored
 * before the fine print) had the coarse planes alone, not deflated.
 */
function encodePrint(grid: Float32Array, fineGrid: Float32Array, cellShare: number): Uint8Array {
  const coarse = planes(grid, COARSE, STRONG_INK);
  const fine = planes(fineGrid, FINE_GRID, FINE_STRONG_INK);
  const coarsePacked = packPlanes(coarse);
  const finePacked = packPlanes(fine);
  const bytes = new Uint8Array(HEADER_BYTES + coarsePacked.length + finePacked.length);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, PRINT_VERSION);
  view.setUint16(2, PRINT_WIDTH, true);
  view.setUint16(4, PRINT_HEIGHT, true);
  view.setUint32(8, coarse.strongCount, true);
  view.setFloat32(12, cellShare, true);
  view.setUint32(16, coarsePacked.length, true);
  bytes.set(coarsePacked, HEADER_BYTES);
  bytes.set(finePacked, HEADER_BYTES + coarsePacked.length);
  return bytes;
}

function decodePrint(bytes: Uint8Array): DecodedPrint | null {
  if (bytes.length < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (view.getUint16(2, true) !== PRINT_WIDTH || view.getUint16(4, true) !== PRINT_HEIGHT)
    return null;
  const strongCount = view.getUint32(8, true);
  if (version === 1) {
    if (bytes.length !== V1_BYTES) return null;
    const coarse = unpackPlanes(bytes.subarray(V1_HEADER_BYTES), PLANE_WORDS);
    return coarse && { ...coarse, version, strongCount, finePacked: null };
  }
  if (version !== 2 && version !== PRINT_VERSION) return null;
  const fineAt = HEADER_BYTES + view.getUint32(16, true);
  if (fineAt >= bytes.length) return null;
  const coarse = inflated(bytes.subarray(HEADER_BYTES, fineAt), PLANE_WORDS);
  return coarse && { ...coarse, version, strongCount, finePacked: bytes.subarray(fineAt) };
}

const framedBySpread = (print: DecodedPrint) => print.version >= 3;

/** A strong plane and an any-ink plane as little-endian 32-bit words, deflated. */
function packPlanes(p: Planes): Uint8Array {
  const words = p.strong.length;
  const raw = new Uint8Array(8 * words);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < words; i++) {
    view.setUint32(4 * i, p.strong[i]!, true);
    view.setUint32(4 * (words + i), p.any[i]!, true);
  }
  return deflateRawSync(raw, { level: 9 });
}

function inflated(packed: Uint8Array, words: number): Planes | null {
  try {
    return unpackPlanes(inflateRawSync(packed), words);
  } catch {
    return null;
  }
}

function unpackPlanes(raw: Uint8Array, words: number): Planes | null {
  if (raw.length !== 8 * words) return null;
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const strong = new Uint32Array(words);
  const any = new Uint32Array(words);
  for (let i = 0; i < words; i++) {
    strong[i] = view.getUint32(4 * i, true);
    any[i] = view.getUint32(4 * (words + i), true);
  }
  return { strong, any };
}

/** A bit plane's size: cells across and down, and 32-bit words a row. */
interface Layout {
  width: number;
  height: number;
  words: number;
}

function layout(width: number, height: number): Layout {
  return { width, height, words: Math.ceil(width / 32) };
}

/** Every cell with ink in it or beside, above or below it (a 3x3 square let two hands' writing on one line explain each other). */
function nearInk(plane: Uint32Array, at: Layout = COARSE): Uint32Array {
  const out = new Uint32Array(plane.length);
  const n = at.words;
  for (let r = 0; r < at.height; r++) {
    for (let i = 0; i < n; i++) {
      const k = r * n + i;
      const w = plane[k]!;
      const before = i > 0 ? plane[k - 1]! : 0;
      const after = i + 1 < n ? plane[k + 1]! : 0;
      out[k] =
        w |
        (w << 1) |
        (before >>> 31) |
        (w >>> 1) |
        (after << 31) |
        (r > 0 ? plane[k - n]! : 0) |
        (r + 1 < at.height ? plane[k + n]! : 0);
    }
  }
  return out;
}

/** Word i of row r of `plane` moved by (dx, dy) cells (|dx| < 32); 0 outside the grid. */
function shiftedWord(
  plane: Uint32Array,
  at: Layout,
  r: number,
  i: number,
  dx: number,
  dy: number,
): number {
  const sr = r - dy;
  if (sr < 0 || sr >= at.height) return 0;
  const row = sr * at.words;
  const w = plane[row + i]!;
  if (dx === 0) return w;
  if (dx > 0) return (w << dx) | (i > 0 ? plane[row + i - 1]! >>> (32 - dx) : 0);
  return (w >>> -dx) | (i + 1 < at.words ? plane[row + i + 1]! << (32 + dx) : 0);
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
  at: Layout = COARSE,
): number {
  let count = 0;
  for (let r = tile.r0; r < tile.r1; r += step) {
    const row = r * at.words;
    for (let i = tile.i0; i < tile.i1; i++) {
      const w = ink[row + i]! & tile.masks[i]!;
      if (w === 0) continue;
      const u = w & ~shiftedWord(near, at, r, i, dx, dy);
      if (u === 0) continue;
      count += popcount(u);
      if (out) out[row + i]! |= u;
    }
    if (count > limit) return count;
  }
  return count;
}

/** Set cells with another set cell among their 8 neighbours (scanner noise makes single cells). */
function clustered(plane: Uint32Array, at: Layout = COARSE): number {
  let count = 0;
  const n = at.words;
  for (let r = 0; r < at.height; r++) {
    for (let i = 0; i < n; i++) {
      const k = r * n + i;
      const u = plane[k]!;
      if (u === 0) continue;
      const before = i > 0 ? plane[k - 1]! : 0;
      const after = i + 1 < n ? plane[k + 1]! : 0;
      const sideways = (u << 1) | (before >>> 31) | (u >>> 1) | (after << 31);
      const vertical =
        (r > 0 ? neighbourRow(plane, k - n, i, n) : 0) |
        (r + 1 < at.height ? neighbourRow(plane, k + n, i, n) : 0);
      count += popcount(u & (sideways | vertical));
    }
  }
  return count;
}

/** The 3-wide horizontal dilation of a row's word (the row above or below a cell). */
function neighbourRow(plane: Uint32Array, k: number, i: number, words: number): number {
  const w = plane[k]!;
  const before = i > 0 ? plane[k - 1]! : 0;
  const after = i + 1 < words ? plane[k + 1]! : 0;
  return w | (w << 1) | (before >>> 31) | (w >>> 1) | (after << 31);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
