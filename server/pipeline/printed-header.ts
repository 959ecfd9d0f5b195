// Whether a page carries the line the product prints at the top of every packet page ("Student
// 1049 | Lesson 2 | ... | page 1 of 2", 5-9 mm below the edge). A graded page whose codes are
// covered still has it; the back of a sheet, blank or with a helper's comment, does not. The page
// may lie any way round when no code told its orientation, so all four edges are looked at.
import sharp from 'sharp';

/** Side of the page image looked at, in pixels (about 0.5 mm a pixel on A4). */
const LOOK_SIDE = 600;
/** The header band, as shares of the page's long side (A4: 3 to 11 mm from the edge). */
const BAND_FROM = 0.01;
const BAND_TO = 0.037;
/** A printed line covers at least this share of the band's length with ink. */
const MIN_LINE_SHARE = 0.3;

export async function hasPrintedHeader(jpeg: Uint8Array): Promise<boolean> {
  const { data, info } = await sharp(jpeg, { failOn: 'none' })
    .greyscale()
    .resize({ width: LOOK_SIDE, height: LOOK_SIDE, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const long = Math.max(width, height);
  const from = Math.round(long * BAND_FROM);
  const to = Math.max(from + 1, Math.round(long * BAND_TO));
  const paper = paperLevel(data);
  const ink = paper * 0.55;
  const dark = (x: number, y: number) => data[y * width + x]! < ink;
  // Along each edge: the share of positions (away from the corners, where the codes sit) with ink in the band.
  const along = (length: number, inBand: (position: number, depth: number) => boolean) => {
    let inked = 0;
    const start = Math.round(length * 0.08);
    const end = Math.round(length * 0.72);
    for (let p = start; p < end; p++) {
      for (let d = from; d < to; d++)
        if (inBand(p, d)) {
          inked++;
          break;
        }
    }
    return inked / Math.max(1, end - start);
  };
  const edges = [
    along(width, (x, d) => dark(x, d)),
    along(width, (x, d) => dark(width - 1 - x, height - 1 - d)),
    along(height, (y, d) => dark(d, height - 1 - y)),
    along(height, (y, d) => dark(width - 1 - d, y)),
  ];
  return edges.some((share) => share >= MIN_LINE_SHARE);
}

/** The paper's grey: a bright percentile of the page. */
function paperLevel(data: Uint8Array): number {
  const counts = new Uint32Array(256);
  for (const value of data) counts[value]!++;
  let seen = 0;
  for (let level = 255; level >= 0; level--) {
    seen += counts[level]!;
    if (seen >= data.length * 0.2) return level;
  }
  return 255;
}
