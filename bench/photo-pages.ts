// Photos of pages (issue 35): pages the product prints (packet pages with their p codes, intro
// answer-sheet masters with their t codes), written on, then photographed on a table as a phone
// does (tests/fixtures/phone-photos: 10-20 degrees off-axis, a few degrees turned, a shadow,
// wood grain, slight blur, 12 MP JPEG q85), read by the pipeline as a photo upload is:
// - pages read right / wrong / not read (a code other than the page's own is wrong: must be 0),
//   and photos without a sheet or out of focus kept with their reason;
// - time per photo on this machine's 2 cores (the default page worker beside the job thread),
//   against reading the same pages as a 200-dpi scan;
// - the sheet finder (find-sheet, a region grown on the grey image) against OpenCV's JavaScript
//   build (@techstark/opencv-js: Canny edges, the largest 4-sided contour), corners against the
//   photos' true corners.
// Prints a table and writes bench/results/photo-pages.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { newCodeId } from '../server/db/printed-codes';
import { makeAnswerSheetMaster } from '../server/pdf/answer-sheet-master';
import { createPdfWriter } from '../server/pdf/pdf-writer';
import { drawPacketPage, PACKET_PAGE_SIZE } from '../server/pdf/packet-page';
import type { Code } from '../server/domain/codes';
import { findSheet, FIND_SHEET_SIDE, ordered, type Point } from '../server/pipeline/find-sheet';
import { processPages, type ProcessedPage } from '../server/pipeline/process-pages';
import { stopWaitingPageWorkers } from '../server/pipeline/page-pool';
import { PROJECT_ROOT } from '../server/project-root';
import {
  photographPage,
  photographTable,
  randomShot,
  type PhonePhoto,
} from '../tests/fixtures/phone-photos';
import { createPrng } from '../tests/fixtures/prng';
import { renderPdfPage } from '../tests/fixtures/render-pdf';
import { writeAnswers } from '../tests/fixtures/scan-effects';
import { ScanPdfBuilder } from '../tests/fixtures/scan-pdf';

const PACKET_PAGES = Number(process.env.PHOTO_BENCH_PACKET ?? 30);
const INTRO_PAGES = Number(process.env.PHOTO_BENCH_INTRO ?? 30);
const TABLES = 3;
const BLURRED = 3;
const DPI = 200;
const PUBLIC_URL = 'https://portal.example.org';

interface Truth {
  kind: 'packet' | 'intro' | 'table' | 'blurred';
  code: Code | null;
  corners: Point[] | null;
  photoSize: { width: number; height: number };
}

const dir = mkdtempSync(path.join(tmpdir(), 'photo-bench-'));
const photos: { path: string; mediaType: 'image/jpeg' }[] = [];
const truths: Truth[] = [];
const scans = await ScanPdfBuilder.create();
const prng = createPrng('photo-bench');

async function addPhoto(
  kind: Truth['kind'],
  code: Code | null,
  photo: PhonePhoto | Uint8Array,
): Promise<void> {
  const file = path.join(dir, `photo-${photos.length + 1}.jpg`);
  const jpeg = photo instanceof Uint8Array ? photo : photo.jpeg;
  writeFileSync(file, jpeg);
  photos.push({ path: file, mediaType: 'image/jpeg' });
  truths.push({
    kind,
    code,
    corners: photo instanceof Uint8Array ? null : photo.corners,
    photoSize:
      photo instanceof Uint8Array
        ? { width: 3000, height: 4000 }
        : { width: photo.width, height: photo.height },
  });
}

console.log(
  `making ${PACKET_PAGES} packet and ${INTRO_PAGES} intro page photos, ${TABLES} of the table, ${BLURRED} out of focus ...`,
);
const started = Date.now();
// A master page as a scan of it, the picture on packet pages (the packet stamps its own code on it).
const master = await makeAnswerSheetMaster({
  courseName: 'Search the Scriptures',
  lessonName: 'Lesson 3: Faith',
  lessonNumber: 3,
  pages: [{ page_number: 1, code: { prefix: 't', id: newCodeId() } }],
  publicUrl: PUBLIC_URL,
});
const masterScan = renderPdfPage(master, 0, 150);
const masterJpeg = new Uint8Array(
  await sharp(Buffer.from(masterScan.data), {
    raw: { width: masterScan.width, height: masterScan.height, channels: 1 },
  })
    .jpeg({ quality: 80 })
    .toBuffer(),
);
for (let i = 0; i < PACKET_PAGES + INTRO_PAGES; i++) {
  const packet = i < PACKET_PAGES;
  const code: Code = { prefix: packet ? 'p' : 't', id: newCodeId() };
  let pdf: Uint8Array;
  if (packet) {
    const writer = await createPdfWriter();
    await writer.addPage(PACKET_PAGE_SIZE, (context) =>
      drawPacketPage(
        context,
        {
          jpeg: masterJpeg,
          code,
          studentHumanId: 100200 + i,
          lessonName: 'Lesson 3: Faith',
          congregationCode: 'GH 0042',
          pageNumber: 1,
          pageCount: 1,
        },
        PUBLIC_URL,
      ),
    );
    pdf = await writer.finish();
  } else {
    pdf = await makeAnswerSheetMaster({
      courseName: 'The Gospel of John',
      lessonName: 'Lesson 1',
      lessonNumber: 1,
      pages: [{ page_number: 1, code }],
      publicUrl: PUBLIC_URL,
    });
  }
  const page = renderPdfPage(pdf, 0, DPI);
  writeAnswers(page, prng, DPI, 4);
  await addPhoto(
    packet ? 'packet' : 'intro',
    code,
    await photographPage(page, randomShot(prng), prng),
  );
  await scans.addPage({ raster: page, dpi: DPI, encoding: 'jpeg_grey', quality: 80 });
}
for (let i = 0; i < TABLES; i++) await addPhoto('table', null, await photographTable(prng));
for (let i = 0; i < BLURRED; i++) {
  const pdf = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: 'Lesson 1',
    lessonNumber: 1,
    pages: [{ page_number: 1, code: { prefix: 't', id: newCodeId() } }],
    publicUrl: PUBLIC_URL,
  });
  await addPhoto(
    'blurred',
    null,
    await photographPage(
      renderPdfPage(pdf, 0, DPI),
      { ...randomShot(prng), blur: prng.range(10, 16) },
      prng,
    ),
  );
}
const scanPath = path.join(dir, 'scans.pdf');
writeFileSync(scanPath, await scans.save());
console.log(`made in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// --- The sheet finders, on the same small grey image (what photo-page gives find-sheet).
const require = createRequire(import.meta.url);
// opencv-js is a CommonJS bundle that initialises itself.
const cv = require('@techstark/opencv-js') as OpenCv;
await new Promise<void>((resolve) =>
  cv.Mat ? resolve() : (cv.onRuntimeInitialized = () => resolve()),
);

interface OpenCv {
  Mat: (new () => CvMat) & { ones(rows: number, cols: number, type: number): CvMat };
  MatVector: new () => { size(): number; get(i: number): CvMat; delete(): void };
  matFromArray(rows: number, cols: number, type: number, data: ArrayLike<number>): CvMat;
  CV_8UC1: number;
  Size: new (w: number, h: number) => unknown;
  GaussianBlur(src: CvMat, dst: CvMat, size: unknown, sigma: number): void;
  Canny(src: CvMat, dst: CvMat, low: number, high: number): void;
  dilate(src: CvMat, dst: CvMat, kernel: CvMat): void;
  findContours(src: CvMat, contours: unknown, hierarchy: CvMat, mode: number, method: number): void;
  RETR_EXTERNAL: number;
  CHAIN_APPROX_SIMPLE: number;
  contourArea(c: CvMat): number;
  arcLength(c: CvMat, closed: boolean): number;
  approxPolyDP(c: CvMat, out: CvMat, epsilon: number, closed: boolean): void;
  onRuntimeInitialized?: () => void;
}
interface CvMat {
  rows: number;
  data32S: Int32Array;
  delete(): void;
}

/** The classic document-scanner recipe in OpenCV (as jscanify does): edges, the largest quadrilateral contour. */
function openCvSheet(small: { width: number; height: number; data: Uint8Array }): Point[] | null {
  const src = cv.matFromArray(small.height, small.width, cv.CV_8UC1, small.data);
  const blurred = new cv.Mat();
  const edges = new cv.Mat();
  const kernel = cv.Mat.ones(3, 3, cv.CV_8UC1);
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  try {
    cv.GaussianBlur(src, blurred, new cv.Size(5, 5), 0);
    cv.Canny(blurred, edges, 50, 150);
    cv.dilate(edges, edges, kernel);
    cv.findContours(edges, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    let best: Point[] | null = null;
    let bestArea = 0.12 * small.width * small.height;
    for (let i = 0; i < contours.size(); i++) {
      const contour = contours.get(i);
      const approx = new cv.Mat();
      cv.approxPolyDP(contour, approx, 0.02 * cv.arcLength(contour, true), true);
      const area = cv.contourArea(approx);
      if (approx.rows === 4 && area > bestArea) {
        bestArea = area;
        best = [0, 1, 2, 3].map((k) => ({
          x: approx.data32S[2 * k]!,
          y: approx.data32S[2 * k + 1]!,
        }));
      }
      approx.delete();
      contour.delete();
    }
    return best === null ? null : ordered(best);
  } finally {
    for (const mat of [src, blurred, edges, kernel, hierarchy]) mat.delete();
    contours.delete();
  }
}

/** A corner found within 1.5% of the small image's diagonal (some 10 px on it, 60 px on the photo) is right. */
const CORNER_TOLERANCE = 0.015;

/** Largest distance from a true corner to the nearest found corner, as a share of the image's diagonal. */
function cornerError(found: Point[], truth: Point[], scale: number, diagonal: number): number {
  return (
    Math.max(
      ...truth.map((t) =>
        Math.min(...found.map((f) => Math.hypot(f.x - t.x / scale, f.y - t.y / scale))),
      ),
    ) / diagonal
  );
}

const finders = {
  'find-sheet (own)': (small: { width: number; height: number; data: Uint8Array }) =>
    findSheet(small),
  'opencv-js (Canny + contours)': openCvSheet,
};
const finderResults: Record<
  string,
  { found: number; right: number; falseSheets: number; msPerPhoto: number; errors: number[]; missed: string[] }
> = {};
for (const name of Object.keys(finders))
  finderResults[name] = { found: 0, right: 0, falseSheets: 0, msPerPhoto: 0, errors: [], missed: [] };
for (const [index, photo] of photos.entries()) {
  const truth = truths[index]!;
  // As photo-page makes it: the whole photo decoded grey, then scaled down and blurred a little.
  const grey = await sharp(photo.path)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(grey.data, {
    raw: { width: grey.info.width, height: grey.info.height, channels: 1 },
  })
    .resize({ width: FIND_SHEET_SIDE, height: FIND_SHEET_SIDE, fit: 'inside' })
    .blur(1.2)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const small = { width: info.width, height: info.height, data: new Uint8Array(data) };
  const scale = truth.photoSize.width / info.width;
  for (const [name, find] of Object.entries(finders)) {
    const t = performance.now();
    const found = find(small);
    finderResults[name]!.msPerPhoto += performance.now() - t;
    if (found === null) {
      if (truth.corners !== null) finderResults[name]!.missed.push(`${index + 1}:${truth.kind}`);
      continue;
    }
    finderResults[name]!.found++;
    if (truth.corners === null) {
      finderResults[name]!.falseSheets++;
      continue;
    }
    const error = cornerError(found, truth.corners, scale, Math.hypot(info.width, info.height));
    finderResults[name]!.errors.push(error);
    if (error < CORNER_TOLERANCE) finderResults[name]!.right++;
  }
}
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : Math.round(sorted[Math.floor(sorted.length / 2)]! * 1000) / 10;
}
const sheets = truths.filter((t) => t.corners !== null).length;
for (const result of Object.values(finderResults))
  result.msPerPhoto = Math.round((result.msPerPhoto / photos.length) * 10) / 10;

// --- The pipeline: photos as a photo upload reads them, and the same pages as a scan.
async function timed(
  source: Parameters<typeof processPages>[0],
): Promise<{ pages: ProcessedPage[]; seconds: number }> {
  const t = Date.now();
  const result = await processPages(source, { expectedPrefixes: ['p', 't'], workers: 1 });
  return { pages: result.pages, seconds: (Date.now() - t) / 1000 };
}
const photoRun = await timed({ photos });
const pagePhotos = PACKET_PAGES + INTRO_PAGES;
const scanRun = await timed(scanPath);
await stopWaitingPageWorkers();

let right = 0;
let wrong = 0;
let unread = 0;
const reasons: Record<string, Record<string, number>> = {};
for (const [index, page] of photoRun.pages.entries()) {
  const truth = truths[index]!;
  const said = page.code ? 'code' : (page.reason ?? 'none');
  reasons[truth.kind] ??= {};
  reasons[truth.kind]![said] = (reasons[truth.kind]![said] ?? 0) + 1;
  if (
    page.code &&
    (truth.code === null ||
      page.code.prefix !== truth.code.prefix ||
      page.code.id !== truth.code.id)
  )
    wrong++;
  else if (truth.code !== null && page.code) right++;
  else if (truth.code !== null) unread++;
}
const scanRight = scanRun.pages.filter((page, i) => page.code?.id === truths[i]!.code?.id).length;
const photoSecondsEach = photoRun.seconds / photos.length;
const scanSecondsEach = scanRun.seconds / pagePhotos;

const results = {
  photos: {
    pages: pagePhotos,
    packet: PACKET_PAGES,
    intro: INTRO_PAGES,
    tables: TABLES,
    blurred: BLURRED,
  },
  read: { right, wrong, unread, share_right: Math.round((right / pagePhotos) * 1000) / 10 },
  reasons,
  time: {
    cores: 2,
    page_workers: 1,
    seconds_per_photo: Math.round(photoSecondsEach * 1000) / 1000,
    seconds_per_scanned_page: Math.round(scanSecondsEach * 1000) / 1000,
    photo_to_scan: Math.round((photoSecondsEach / scanSecondsEach) * 10) / 10,
    scans_read_right: scanRight,
  },
  sheet_finders: Object.fromEntries(
    Object.entries(finderResults).map(([name, r]) => [
      name,
      {
        sheets,
        found_right: r.right,
        found_on_no_sheet: r.falseSheets,
        ms_per_photo: r.msPerPhoto,
        median_corner_error_pct: median(r.errors),
        worst_corner_error_pct: Math.round(Math.max(0, ...r.errors) * 1000) / 10,
        missed: r.missed.join(' '),
      },
    ]),
  ),
};
console.table({
  'pages read right': `${right} / ${pagePhotos} (${results.read.share_right}%)`,
  'pages read wrong': wrong,
  'pages not read': unread,
  'table photos': JSON.stringify(reasons.table ?? {}),
  'out-of-focus photos': JSON.stringify(reasons.blurred ?? {}),
  's per photo (2 cores)': results.time.seconds_per_photo,
  's per scanned page': results.time.seconds_per_scanned_page,
  'photo / scan': results.time.photo_to_scan,
});
console.table(results.sheet_finders);
mkdirSync(path.join(PROJECT_ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(PROJECT_ROOT, 'bench/results/photo-pages.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
console.log('wrote bench/results/photo-pages.json');
rmSync(dir, { recursive: true, force: true });
if (wrong > 0 || right < 0.98 * pagePhotos) process.exitCode = 1;
