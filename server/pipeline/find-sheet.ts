// Finds the sheet of paper on a photo's background: its four corners, on a small grey copy of
// the photo. Paper is a bright, smooth region around the middle of the photo with a clear edge;
// a shadow across it changes its brightness slowly, so the region is grown from bright seeds near
// the middle by small steps between neighbours (a threshold for the whole photo would cut the
// shadowed part off); each side is then moved onto the paper's edge. Each pixel also carries the paper's level as the growth reached it (a slow
// average along the way): the paper's edge may blur into a background of similar grain, but a
// slow slide down into the background then strays too far from that level, and pixels on an edge
// are not grown over at all. Its convex hull gives the largest quadrilateral inside it: the corners.
// Measured against OpenCV's JavaScript build in bench/photo-pages.ts.
import type { GreyRaster } from './raster';

export interface Point {
  x: number;
  y: number;
}

/** The sheet's corners in the small image's pixels: top-left, top-right, bottom-right, bottom-left as seen. */
export type SheetCorners = [Point, Point, Point, Point];

/** Side of the small image the sheet is looked for on (the photo scaled down). */
export const FIND_SHEET_SIDE = 512;

/** Largest step between neighbouring pixels inside the paper (grey levels, small blurred image). */
const GROW_STEP = 7;
/** Farthest a pixel may be from the paper's level where the growth reached it. */
const LEVEL_TOLERANCE = 24;
/** How fast that level follows the pixels (a shadow changes it slowly, an edge fast). */
const LEVEL_FOLLOW = 0.02;
/** Pixels on an edge (neighbours either side differ by more) are never grown over: a blurred edge is a slope too. */
const EDGE_STEP = 24;
/** A sheet covers at least this share of the photo (smaller: too far to read its codes). */
const MIN_SHEET_SHARE = 0.12;
/** The region's outline fills at least this share of its quadrilateral (paper is a quadrilateral). */
const MIN_FILL = 0.88;
/** Largest share of the region's outline that may run along the photo's border (a leak). */
const MAX_BORDER_SHARE = 0.25;

/** The sheet's corners, or null when no sheet of paper is in the photo. */
export function findSheet(small: GreyRaster): SheetCorners | null {
  for (const step of [GROW_STEP, GROW_STEP - 3, GROW_STEP + 4]) {
    const region = growPaper(small, step);
    if (region === null) continue;
    const corners = sheetOfRegion(small, region);
    if (corners !== null) return corners;
  }
  return null;
}

/** The paper region (1 = paper) grown from bright seeds near the middle; null without seeds. */
export function growPaper(image: GreyRaster, step: number): Uint8Array | null {
  const { width: w, height: h, data } = image;
  const region = new Uint8Array(w * h);
  const level = new Float32Array(w * h);
  const queue = new Int32Array(w * h);
  let head = 0;
  let tail = 0;
  // Seeds: the brightest pixels of the middle third (paper is the brightest thing there).
  const x0 = Math.floor(w / 3);
  const y0 = Math.floor(h / 3);
  const x1 = Math.ceil((2 * w) / 3);
  const y1 = Math.ceil((2 * h) / 3);
  const histogram = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) histogram[data[y * w + x]!]!++;
  const total = (x1 - x0) * (y1 - y0);
  let seedLevel = 255;
  for (let count = 0; seedLevel > 0 && count < total * 0.3; seedLevel--)
    count += histogram[seedLevel]!;
  if (seedLevel < 60) return null;
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0; x < x1; x += 2) {
      const i = y * w + x;
      if (data[i]! >= seedLevel && region[i] === 0) {
        region[i] = 1;
        level[i] = data[i]!;
        queue[tail++] = i;
      }
    }
  }
  if (tail === 0) return null;
  // Paper is never much darker than its seeds, however the light falls on it.
  const floor = seedLevel * 0.45;
  while (head < tail) {
    const i = queue[head++]!;
    const value = data[i]!;
    const paper = level[i]!;
    const x = i % w;
    // The four neighbours, inline (a closure per pixel made this several times slower).
    for (let k = 0; k < 4; k++) {
      let j: number;
      if (k === 0) j = x > 0 ? i - 1 : -1;
      else if (k === 1) j = x < w - 1 ? i + 1 : -1;
      else if (k === 2) j = i - w;
      else j = i + w;
      if (j < 0 || j >= w * h || region[j] !== 0) continue;
      const v = data[j]!;
      if (v < floor || Math.abs(v - value) > step || Math.abs(v - paper) > LEVEL_TOLERANCE)
        continue;
      const jx = j % w;
      if (jx > 0 && jx < w - 1 && Math.abs(data[j - 1]! - data[j + 1]!) > EDGE_STEP) continue;
      if (j >= w && j < w * (h - 1) && Math.abs(data[j - w]! - data[j + w]!) > EDGE_STEP) continue;
      region[j] = 1;
      level[j] = paper + LEVEL_FOLLOW * (v - paper);
      queue[tail++] = j;
    }
  }
  return region;
}

/** The quadrilateral of a paper region when it looks like a sheet; null otherwise. */
function sheetOfRegion(image: GreyRaster, region: Uint8Array): SheetCorners | null {
  const { width: w, height: h } = image;
  // The outline: per row, the leftmost and rightmost region pixels (enough for a convex hull).
  const points: Point[] = [];
  let area = 0;
  // Area within each row's outline: print and handwriting leave holes in the paper region.
  let spans = 0;
  let onBorder = 0;
  let rows = 0;
  for (let y = 0; y < h; y++) {
    let left = -1;
    let right = -1;
    for (let x = 0; x < w; x++) {
      if (region[y * w + x] === 0) continue;
      area++;
      if (left < 0) left = x;
      right = x;
    }
    if (left < 0) continue;
    rows++;
    spans += right - left + 1;
    points.push({ x: left, y }, { x: right + 1, y });
    if (left === 0) onBorder++;
    if (right === w - 1) onBorder++;
    if (y === 0 || y === h - 1) onBorder += (right - left + 1) / 8;
  }
  if (area < MIN_SHEET_SHARE * w * h) return null;
  if (onBorder > MAX_BORDER_SHARE * 2 * rows) return null;
  const hull = convexHull(points);
  if (hull.length < 4) return null;
  const quad = largestQuadrilateral(hull);
  const quadArea = polygonArea(quad);
  if (quadArea <= 0 || spans / quadArea < MIN_FILL || quadArea > 0.995 * w * h) return null;
  return refined(image, ordered(quad));
}

/** How far (pixels) a side is looked for beyond the region's outline, and inside it. */
const REFINE_OUT = 5;
const REFINE_IN = 3;

/**
 * The region stops short of the paper's edge (edge pixels are never grown over), so each side is
 * moved to where the light drops most along it, and the corners are where the sides meet.
 */
function refined(image: GreyRaster, corners: SheetCorners): SheetCorners {
  const cx = corners.reduce((sum, p) => sum + p.x, 0) / 4;
  const cy = corners.reduce((sum, p) => sum + p.y, 0) / 4;
  const lines = corners.map((p, i) => {
    const q = corners[(i + 1) % 4]!;
    const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    let nx = (q.y - p.y) / length;
    let ny = -(q.x - p.x) / length;
    // Outward: away from the sheet's middle.
    if ((p.x - cx) * nx + (p.y - cy) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    let best = 0;
    let bestDrop = -Infinity;
    for (let d = -REFINE_IN; d <= REFINE_OUT; d += 0.5) {
      let drop = 0;
      for (let t = 0.1; t <= 0.9; t += 0.02) {
        const x = p.x + (q.x - p.x) * t;
        const y = p.y + (q.y - p.y) * t;
        drop +=
          sample(image, x + nx * (d - 0.75), y + ny * (d - 0.75)) -
          sample(image, x + nx * (d + 0.75), y + ny * (d + 0.75));
      }
      if (drop > bestDrop) {
        bestDrop = drop;
        best = d;
      }
    }
    return { x: p.x + nx * best, y: p.y + ny * best, dx: q.x - p.x, dy: q.y - p.y };
  });
  const meet = (a: (typeof lines)[number], b: (typeof lines)[number]): Point | null => {
    const det = a.dx * b.dy - a.dy * b.dx;
    if (Math.abs(det) < 1e-9) return null;
    const t = ((b.x - a.x) * b.dy - (b.y - a.y) * b.dx) / det;
    return { x: a.x + a.dx * t, y: a.y + a.dy * t };
  };
  const moved = corners.map((corner, i) => meet(lines[(i + 3) % 4]!, lines[i]!) ?? corner);
  // A refinement that moved a corner far (a side found on something else) is not taken.
  const far = moved.some(
    (p, i) => Math.hypot(p.x - corners[i]!.x, p.y - corners[i]!.y) > 2 * REFINE_OUT,
  );
  return far ? corners : (moved as SheetCorners);
}

/** Bilinear grey value at (x, y), clamped to the image. */
function sample(image: GreyRaster, x: number, y: number): number {
  const { width: w, height: h, data } = image;
  const fx = Math.min(w - 1.001, Math.max(0, x));
  const fy = Math.min(h - 1.001, Math.max(0, y));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const tx = fx - x0;
  const ty = fy - y0;
  const i = y0 * w + x0;
  const top = data[i]! + (data[i + 1]! - data[i]!) * tx;
  const bottom = data[i + w]! + (data[i + w + 1]! - data[i + w]!) * tx;
  return top + (bottom - top) * ty;
}

/** Andrew's monotone chain; counter-clockwise in image coordinates (y down). */
export function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point, a: Point, b: Point) =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The largest quadrilateral with its corners on the hull: for each pair of opposite corners, the
 * farthest hull point on either side of their diagonal. Hulls of a few hundred points take ms.
 */
function largestQuadrilateral(hull: Point[]): Point[] {
  const pts =
    hull.length > 120 ? hull.filter((_, i) => i % Math.ceil(hull.length / 120) === 0) : hull;
  const n = pts.length;
  let best: Point[] = pts.slice(0, 4);
  let bestArea = -1;
  const twiceArea = (a: Point, b: Point, c: Point) =>
    Math.abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      let k = -1;
      let kArea = -1;
      for (let m = i + 1; m < j; m++) {
        const s = twiceArea(pts[i]!, pts[j]!, pts[m]!);
        if (s > kArea) {
          kArea = s;
          k = m;
        }
      }
      let l = -1;
      let lArea = -1;
      for (let m = j + 1; m < n + i; m++) {
        const s = twiceArea(pts[i]!, pts[j]!, pts[m % n]!);
        if (s > lArea) {
          lArea = s;
          l = m % n;
        }
      }
      if (k < 0 || l < 0) continue;
      if (kArea + lArea > bestArea) {
        bestArea = kArea + lArea;
        best = [pts[i]!, pts[k]!, pts[j]!, pts[l]!];
      }
    }
  }
  return best;
}

function polygonArea(points: Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return Math.abs(sum) / 2;
}

/** Corners from the top-left one (smallest x + y), clockwise as seen (y down). */
export function ordered(quad: Point[]): SheetCorners {
  const cx = quad.reduce((s, p) => s + p.x, 0) / 4;
  const cy = quad.reduce((s, p) => s + p.y, 0) / 4;
  const byAngle = [...quad].sort(
    (a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx),
  );
  let start = 0;
  for (let i = 1; i < 4; i++)
    if (byAngle[i]!.x + byAngle[i]!.y < byAngle[start]!.x + byAngle[start]!.y) start = i;
  return [0, 1, 2, 3].map((i) => byAngle[(start + i) % 4]!) as SheetCorners;
}
