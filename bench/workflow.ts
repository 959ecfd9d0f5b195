// File workflow benchmark on a 2000-page file: sending it (the packet, every page stamped
// with its own code), a graded upload of the whole packet coming back (every page read and
// matched), and the return file (graded pages, backs, next-lesson sheets). Seconds and peak RSS
// of each, every phase in a process of its own so one phase's memory does not count for the next.
// The file is synthetic: sheets and pages rows pointing at a few real page images; the graded
// scan is made from the packet's own codes (a real scan's JPEG per page, as scanners write them).
// Writes bench/results/workflow.json.
//
//   npx tsx bench/workflow.ts [--pages 2000] [--stop-after PHASE] [--keep]
//   (DATABASE_URL=postgres://... for PostgreSQL; --keep leaves the work folder, e.g. to profile
//   one phase again: node --cpu-prof --import tsx bench/workflow.ts --phase return-file --work DIR)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { FolderBlobStore } from '../server/blob-store';
import { loadConfig, type Config } from '../server/config';
import type { Database } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { openPglite } from '../server/db/pglite';
import { openPostgres } from '../server/db/postgres';
import { newCodeId } from '../server/db/printed-codes';
import { runGradedUpload } from '../server/jobs/graded-upload';
import type { JobContext } from '../server/jobs/queue';
import { buildReturnFile } from '../server/jobs/return-file';
import { sendPackets } from '../server/jobs/send-packets';
import { makeAnswerSheetMaster } from '../server/pdf/answer-sheet-master';
import { CODE_STAMP } from '../server/pdf/printed-page';
import { codeUrl } from '../server/domain/codes';
import { processPages } from '../server/pipeline/process-pages';
import type { GreyRaster } from '../server/pipeline/raster';
import { readBlob } from '../server/workflow/blob-files';
import { refreshGrading } from '../server/workflow/grading-state';
import { drawPacketPage, drawScan, PACKET_PAGE_SIZE } from '../server/pdf/packet-page';
import { requestSend } from '../server/workflow/send-packets';
import { createStreamingPdfWriter } from '../server/pdf/streaming-pdf-writer';
import { createPrng } from '../tests/fixtures/prng';
import { renderPdfPage } from '../tests/fixtures/render-pdf';
import { addNoise, fillRect, writeAnswers, writeLine } from '../tests/fixtures/scan-effects';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const PAGES = Number(arg('pages', '2000'));
const PHASE = arg('phase', '');
const WORK = arg('work', '');
const TARGETS = { return_file_seconds: 10, rss_mb: 400 };
/** Scan resolution of the graded upload; every tenth front has a written back. */
const SCAN_DPI = 150;
const BACK_EVERY = 10;
/** Every fourth sheet goes through the scanner a little askew (up to 1.5 degrees either way). */
const TILT_EVERY = 4;
const MAX_TILT_DEGREES = 1.5;
const PUBLIC_URL = 'https://portal.example.org';

interface PhaseResult {
  phase: string;
  seconds: number;
  peak_rss_mb: number;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Shared by the phases

interface State {
  schema: string | null;
  fileId: string;
  sheetCount: number;
  uploadId?: string;
  missingSheetId?: string;
  missingPageId?: string;
}

const statePath = () => path.join(WORK, 'state.json');
const readState = (): State => JSON.parse(readFileSync(statePath(), 'utf8')) as State;
const writeState = (state: State) => writeFileSync(statePath(), JSON.stringify(state));

async function openDb(schema: string | null): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgres({ connectionString: url, ...(schema ? { schema } : {}), max: 4 });
  return openPglite({ dataDir: path.join(WORK, 'pglite') });
}

function world(): { config: Config; blobStore: FolderBlobStore } {
  const config = loadConfig({ PUBLIC_URL, DATA_DIR: WORK, LOG_LEVEL: 'silent' });
  return { config, blobStore: new FolderBlobStore({ root: path.join(WORK, 'blobs') }) };
}

function jobContext(db: Database): JobContext {
  const { config, blobStore } = world();
  const quiet = () => undefined;
  return {
    db,
    blobStore,
    config,
    logger: { info: quiet, warn: console.warn, error: console.error } as unknown as JobContext['logger'],
    signal: new AbortController().signal,
    hooks: {},
    workerId: `bench-${process.pid}`,
  };
}

const mb = (bytes: number) => Math.round(bytes / 1048576);
/** Peak resident memory sampled while the last timed() operation ran, and what it started from. */
let sampled = { before: 0, peak: 0, cpu: 0 };

/**
 * Times an operation and samples RSS every 20 ms while it runs (the process's own maximum would
 * include opening the database, which is not the operation's memory).
 */
async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const before = mb(process.memoryUsage.rss());
  sampled = { before, peak: before, cpu: 0 };
  const cpuStart = process.cpuUsage();
  const sample = () => {
    sampled.peak = Math.max(sampled.peak, mb(process.memoryUsage.rss()));
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  try {
    const value = await run();
    return { seconds: Math.round((performance.now() - started) / 10) / 100, value };
  } finally {
    clearInterval(timer);
    sample();
    const cpu = process.cpuUsage(cpuStart);
    sampled.cpu = Math.round((cpu.user + cpu.system) / 1e4) / 100;
  }
}

/** CPU seconds of this process (other load on the machine stretches wall time, not these). */
const rssFields = () => ({ peak_rss_mb: sampled.peak, rss_before_mb: sampled.before, rss_growth_mb: sampled.peak - sampled.before, cpu_seconds: sampled.cpu });

// ---------------------------------------------------------------------------------------------
// Phases (each runs in its own process)

/** The synthetic file: two-page sheets of lesson 1 or 2 (both go on), each of its own student. */
async function prepare(): Promise<PhaseResult> {
  const schema = process.env.DATABASE_URL ? `bench_workflow_${randomBytes(4).toString('hex')}` : null;
  if (schema) {
    const admin = await openPostgres({ connectionString: process.env.DATABASE_URL!, max: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    await admin.close();
  }
  const db = await openDb(schema);
  await migrate(db);
  const { blobStore } = world();
  const { seconds, value } = await timed(async () => {
    const congregation = await db.one<{ id: string }>(`INSERT INTO congregations (wbs_code, display_name) VALUES ('NG 0001', 'Bench') RETURNING id`);
    const course = await db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('The Gospel of John', 'bench') RETURNING id`);
    const templates: { lessonId: string; ids: string[]; codes: string[] }[] = [];
    for (const number of [1, 2, 3]) {
      const lesson = await db.one<{ id: string }>('INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id', [course.id, number, `Lesson ${number}`]);
      const ids: string[] = [];
      const codes: string[] = [];
      for (const page of [1, 2]) {
        const code = newCodeId();
        ids.push((await db.one<{ id: string }>(`INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, 'page', $3) RETURNING id`, [lesson.id, page, code])).id);
        codes.push(code);
      }
      templates.push({ lessonId: lesson.id, ids, codes });
    }
    // A few real page images: the lesson masters rendered at 200 dpi with handwriting.
    const prng = createPrng(5);
    const images: string[] = [];
    for (let variant = 0; variant < 4; variant++) {
      const lesson = templates[variant % 2]!;
      const master = await makeAnswerSheetMaster({
        courseName: 'The Gospel of John',
        lessonName: `Lesson ${(variant % 2) + 1}`,
        lessonNumber: (variant % 2) + 1,
        pages: lesson.codes.map((id, index) => ({ page_number: index + 1, code: { prefix: 't', id } })),
        publicUrl: PUBLIC_URL,
      });
      const raster = renderPdfPage(master, variant >> 1, 200);
      writeAnswers(raster, prng, 200, 8);
      images.push((await blobStore.put(await jpegOf(raster, 80))).key);
    }
    const file = await db.one<{ id: string }>(
      `INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, process_status) VALUES ('Bench batch', $1, $1, 0, $2, 'success') RETURNING id`,
      [randomBytes(32).toString('hex'), PAGES],
    );
    const sheetCount = Math.ceil(PAGES / 2);
    const students = await db.query<{ id: string }>(
      `INSERT INTO students (congregation_id, attributes) SELECT $1, jsonb_build_object('name', 'Student ' || n) FROM generate_series(1, $2) AS n RETURNING id`,
      [congregation.id, sheetCount],
    );
    const sheets = await db.query<{ id: string; sequence: number }>(
      `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group)
       SELECT $1, v.n - 1, v.student_id, CASE WHEN v.n % 2 = 0 THEN $3::uuid ELSE $4::uuid END, $5
       FROM unnest($2::uuid[]) WITH ORDINALITY AS v(student_id, n) RETURNING id, sequence`,
      [file.id, students.map((s) => s.id), templates[1]!.lessonId, templates[0]!.lessonId, congregation.id],
    );
    sheets.sort((a, b) => a.sequence - b.sequence);
    const pageNumbers: number[] = [];
    const sheetIds: string[] = [];
    const templateIds: string[] = [];
    const imageKeys: string[] = [];
    for (let n = 1; n <= PAGES; n++) {
      const sheet = Math.floor((n - 1) / 2);
      const lesson = templates[(sheet + 1) % 2 === 0 ? 1 : 0]!;
      pageNumbers.push(n);
      sheetIds.push(sheets[sheet]!.id);
      templateIds.push(lesson.ids[(n - 1) % 2]!);
      imageKeys.push(images[n % images.length]!);
    }
    await db.query(
      `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, image_blob_key)
       SELECT $1, v.n, v.sheet_id, v.template_id, v.image FROM unnest($2::int[], $3::uuid[], $4::uuid[], $5::text[]) AS v(n, sheet_id, template_id, image)`,
      [file.id, pageNumbers, sheetIds, templateIds, imageKeys],
    );
    return { fileId: file.id, sheetCount };
  });
  writeState({ schema, fileId: value.fileId, sheetCount: value.sheetCount });
  await db.close();
  return { phase: 'prepare', seconds, ...rssFields(), pages: PAGES, sheets: value.sheetCount };
}

async function send(): Promise<PhaseResult> {
  const state = readState();
  const db = await openDb(state.schema);
  const context = jobContext(db);
  const { seconds } = await timed(async () => {
    await requestSend(db, state.fileId);
    await sendPackets(context, state.fileId);
  });
  const packet = await db.one<{ blob_key: string | null; page_count: number }>('SELECT blob_key, page_count FROM packets WHERE file_id = $1', [state.fileId]);
  const sent = await db.one<{ sent_at: Date | null }>('SELECT sent_at FROM files WHERE id = $1', [state.fileId]);
  if (packet.blob_key === null || sent.sent_at === null) throw new Error('send did not finish');
  const bytes = statSync(world().blobStore.localPath(packet.blob_key)).size;
  await db.close();
  return { phase: 'send', seconds, ...rssFields(), pages: packet.page_count, pages_per_s: Math.round(packet.page_count / seconds), packet_mb: Math.round(bytes / 1e6) };
}

/**
 * The packet "printed, graded and scanned": every page a real scan JPEG of a packet page as the
 * product draws it (handwriting, noise, every fourth a little askew) with the page's own code in
 * both code corners, every tenth with a written back; the packet's last
 * page is left out so grading completes only in the return phase. Not timed as part of any phase.
 */
async function makeGradedScan(): Promise<PhaseResult> {
  const state = readState();
  const db = await openDb(state.schema);
  const { blobStore } = world();
  const pages = await db.query<{ page_id: string; sheet_id: string; code_id: string }>(
    `SELECT p.id AS page_id, a.id AS sheet_id,
            (SELECT pc.code_id FROM printed_codes pc WHERE pc.prefix = 'p' AND pc.target_id = p.id ORDER BY pc.created_at LIMIT 1) AS code_id
     FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id LEFT JOIN students st ON st.id = a.student_id
     WHERE a.file_id = $1 ORDER BY st.human_id, a.sequence, p.page_number`,
    [state.fileId],
  );
  const missing = pages.pop()!;
  const base = await gradedBase(blobStore, {
    ...(await db.one<{ image_blob_key: string }>('SELECT image_blob_key FROM pages WHERE id = $1', [missing.page_id])),
    code_id: missing.code_id,
  });
  const prng = createPrng(9);
  const back: GreyRaster = { width: base.width, height: base.height, data: new Uint8Array(base.width * base.height).fill(246) };
  for (let line = 0; line < 6; line++) writeLine(back, prng, 120, back.height * (0.2 + line * 0.05), back.width * 0.6, SCAN_DPI);
  const backJpeg = await jpegOf(back, 70);
  const target = path.join(WORK, 'graded-scan.pdf');
  rmSync(target, { force: true });
  const writer = await createStreamingPdfWriter(target);
  const size: [number, number] = [(base.width / SCAN_DPI) * 72, (base.height / SCAN_DPI) * 72];
  const { seconds } = await timed(async () => {
    let count = 0;
    for (const [index, page] of pages.entries()) {
      const raster: GreyRaster = { width: base.width, height: base.height, data: base.data.slice() };
      stampQr(raster, codeUrl(PUBLIC_URL, { prefix: 'p', id: page.code_id }));
      addNoise(raster, prng, 2);
      const tilt = index % TILT_EVERY === 1 ? prng.range(-MAX_TILT_DEGREES, MAX_TILT_DEGREES) : 0;
      const jpeg = await jpegOf(tilt === 0 ? raster : await tilted(raster, tilt), 70);
      await writer.addPage(size, async ({ page: pdfPage }) => drawScan(pdfPage, jpeg));
      count++;
      if (index % BACK_EVERY === 0) {
        await writer.addPage(size, async ({ page: pdfPage }) => drawScan(pdfPage, backJpeg));
        count++;
      }
    }
    return count;
  });
  const { pages: count } = await writer.finish();
  const handle = await open(target);
  const blob = await blobStore.put(handle.createReadStream(), { maxBytes: Number.POSITIVE_INFINITY });
  const congregation = await db.one<{ id: string }>('SELECT id FROM congregations LIMIT 1');
  const upload = await db.one<{ id: string }>(
    `INSERT INTO graded_uploads (name, congregation_id, blob_key, sha256, page_count) VALUES ('Bench graded', $1, $2, $2, $3) RETURNING id`,
    [congregation.id, blob.key, count],
  );
  writeState({ ...state, uploadId: upload.id, missingSheetId: missing.sheet_id, missingPageId: missing.page_id });
  await db.close();
  return { phase: 'make_graded_scan', seconds, ...rssFields(), pages: count, scan_mb: Math.round(blob.size / 1e6) };
}

/** The scan pipeline alone over the same graded scan (no staging, no database): its own memory. */
async function pipelineOnly(): Promise<PhaseResult> {
  const state = readState();
  const db = await openDb(state.schema);
  const upload = await db.one<{ blob_key: string }>('SELECT blob_key FROM graded_uploads WHERE id = $1', [state.uploadId]);
  await db.close();
  const file = world().blobStore.localPath(upload.blob_key);
  const { seconds, value } = await timed(() =>
    processPages(file, {
      expectedPrefixes: ['p'],
      onPage: (page) => {
        (page as { image: unknown }).image = null;
      },
    }),
  );
  return { phase: 'pipeline_only', seconds, ...rssFields(), pages: value.count };
}

async function gradedUpload(): Promise<PhaseResult> {
  const state = readState();
  const db = await openDb(state.schema);
  const context = jobContext(db);
  const { seconds } = await timed(() => runGradedUpload(context, state.uploadId!));
  const upload = await db.one<{ process_status: string; page_count: number }>('SELECT process_status, page_count FROM graded_uploads WHERE id = $1', [state.uploadId]);
  if (upload.process_status !== 'success') throw new Error(`graded upload ${upload.process_status}`);
  const outcomes = await db.query<{ outcome: string; n: number }>('SELECT outcome, count(*)::int AS n FROM graded_upload_pages WHERE upload_id = $1 GROUP BY outcome ORDER BY outcome', [state.uploadId]);
  const graded = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM answer_sheets WHERE file_id = $1 AND graded', [state.fileId]);
  await db.close();
  return {
    phase: 'graded_upload',
    seconds,
    ...rssFields(),
    pages: upload.page_count,
    pages_per_s: Math.round((upload.page_count / seconds) * 10) / 10,
    outcomes: Object.fromEntries(outcomes.map((row) => [row.outcome, row.n])),
    sheets_graded: graded.n,
  };
}

async function returnFile(): Promise<PhaseResult> {
  const state = readState();
  const db = await openDb(state.schema);
  const context = jobContext(db);
  // The last page's graded scan arrives: grading completes and the return file is requested.
  const front = await db.one<{ front_blob_key: string }>('SELECT front_blob_key FROM feedback LIMIT 1');
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO feedback (page_id, upload_id, front_blob_key) VALUES ($1, $2, $3)', [state.missingPageId, state.uploadId, front.front_blob_key]);
    const completed = await refreshGrading(tx, [state.missingSheetId!]);
    if (completed.length !== 1) throw new Error('grading did not complete');
  });
  const { seconds } = await timed(() => buildReturnFile(context, state.fileId));
  const file = await db.one<{ return_prepped: boolean; return_blob_key: string | null; return_one_sided_blob_key: string | null; return_page_count: number }>(
    'SELECT return_prepped, return_blob_key, return_one_sided_blob_key, return_page_count FROM files WHERE id = $1',
    [state.fileId],
  );
  if (!file.return_prepped || file.return_blob_key === null || file.return_one_sided_blob_key === null) throw new Error('return file not prepped');
  const fileBytes = statSync(world().blobStore.localPath(file.return_blob_key)).size;
  const written = await pageCountWritten(world().blobStore.localPath(file.return_blob_key));
  if (written !== file.return_page_count) throw new Error(`return file has ${written} pages, expected ${file.return_page_count}`);
  // The one-sided layout is written in the same pass (the same scans, no blank pages).
  const oneSidedPath = world().blobStore.localPath(file.return_one_sided_blob_key);
  const oneSidedPages = await pageCountWritten(oneSidedPath);
  await db.close();
  return {
    phase: 'return_file',
    seconds,
    ...rssFields(),
    pages: file.return_page_count,
    pages_per_s: Math.round(file.return_page_count / seconds),
    return_mb: Math.round(fileBytes / 1e6),
    one_sided_pages: oneSidedPages,
    one_sided_mb: Math.round(statSync(oneSidedPath).size / 1e6),
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers

async function jpegOf(raster: GreyRaster, quality: number): Promise<Buffer> {
  return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
    raw: { width: raster.width, height: raster.height, channels: 1 },
  })
    .jpeg({ quality })
    .toBuffer();
}

/** The raster turned by `degrees` about its middle, cut back to its size as a scanner's window would. */
async function tilted(raster: GreyRaster, degrees: number): Promise<GreyRaster> {
  const raw = { width: raster.width, height: raster.height, channels: 1 as const };
  const turned = await sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), { raw })
    .rotate(degrees, { background: { r: 246, g: 246, b: 246 } })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { info } = turned;
  const { data } = await sharp(turned.data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extract({ left: Math.floor((info.width - raster.width) / 2), top: Math.floor((info.height - raster.height) / 2), width: raster.width, height: raster.height })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: raster.width, height: raster.height, data: new Uint8Array(data) };
}

/**
 * A packet page as its study helper gets it, drawn by the product's own drawPacketPage (the
 * student's scan, code corners cleared, header line) and rendered at scan resolution, with the
 * helper's pen marks; the two QR squares are left white for each page's own code (stampQr).
 */
async function gradedBase(blobStore: FolderBlobStore, page: { image_blob_key: string; code_id: string }): Promise<GreyRaster> {
  const pdfPath = path.join(WORK, 'packet-page.pdf');
  rmSync(pdfPath, { force: true });
  const writer = await createStreamingPdfWriter(pdfPath);
  const jpeg = await readBlob(blobStore, page.image_blob_key);
  await writer.addPage(PACKET_PAGE_SIZE, (context) =>
    drawPacketPage(
      context,
      { jpeg, code: { prefix: 'p', id: page.code_id }, studentHumanId: 1, lessonName: 'Lesson 1: Lesson 1', congregationCode: 'NG 0001', pageNumber: 1, pageCount: 2 },
      PUBLIC_URL,
    ),
  );
  await writer.finish();
  const raster = renderPdfPage(readFileSync(pdfPath), 0, SCAN_DPI);
  rmSync(pdfPath);
  for (const square of qrSquares(raster)) fillRect(raster, square, 255);
  writeAnswers(raster, createPrng(3), SCAN_DPI, 4);
  return raster;
}

/** Where packet pages carry their QR code (CODE_STAMP): top-right and bottom-left. */
function qrSquares(raster: GreyRaster): { x: number; y: number; width: number; height: number }[] {
  const mm = SCAN_DPI / 25.4;
  const size = CODE_STAMP.qrSizeMm * mm;
  const edge = CODE_STAMP.edgeMarginMm * mm;
  return [
    { x: raster.width - edge - size, y: edge, width: size, height: size },
    { x: edge, y: raster.height - edge - size, width: size, height: size },
  ];
}

/** The page's QR code drawn into the raster where packet pages carry it (both corners). */
function stampQr(raster: GreyRaster, text: string): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  for (const square of qrSquares(raster)) {
    const module = square.width / qr.modules.size;
    for (let row = 0; row < qr.modules.size; row++) {
      for (let col = 0; col < qr.modules.size; col++) {
        if (!qr.modules.data[row * qr.modules.size + col]) continue;
        fillRect(raster, { x: square.x + col * module, y: square.y + row * module, width: module + 0.5, height: module + 0.5 }, 20);
      }
    }
  }
}

/** Pages of a PDF this project's streaming writer made: its page tree says how many. */
async function pageCountWritten(file: string): Promise<number> {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const tailBytes = Math.min(size, 4 * 1024 * 1024);
    const buffer = Buffer.alloc(tailBytes);
    await handle.read(buffer, 0, tailBytes, size - tailBytes);
    const match = /\/Type \/Pages \/Count (\d+)/.exec(buffer.toString('latin1'));
    return match ? Number(match[1]) : -1;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Main: each phase in a child process, results collected and written

const phases: Record<string, () => Promise<PhaseResult>> = {
  prepare,
  send,
  'make-graded-scan': makeGradedScan,
  'pipeline-only': pipelineOnly,
  'graded-upload': gradedUpload,
  'return-file': returnFile,
};

if (PHASE) {
  const result = await phases[PHASE]!();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}

const work = mkdtempSync(path.join(tmpdir(), 'bench-workflow-'));
mkdirSync(work, { recursive: true });
const results: PhaseResult[] = [];
const stopAfter = arg('stop-after', '');
const keep = argv.includes('--keep');
try {
  for (const phase of Object.keys(phases)) {
    const child = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [fileURLToPath(import.meta.url), '--phase', phase, '--work', work, '--pages', String(PAGES)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const line = (child.stdout ?? '').split('\n').find((l) => l.startsWith('RESULT '));
    if (child.status !== 0 || !line) throw new Error(`phase ${phase} failed (exit ${child.status})\n${child.stdout}`);
    const result = JSON.parse(line.slice('RESULT '.length)) as PhaseResult;
    results.push(result);
    console.log(`${phase.padEnd(18)} ${String(result.seconds).padStart(7)} s  peak RSS ${String(result.peak_rss_mb).padStart(4)} MB  ${JSON.stringify(Object.fromEntries(Object.entries(result).filter(([k]) => !['phase', 'seconds', 'peak_rss_mb'].includes(k))))}`);
    if (phase === stopAfter) break;
  }
} finally {
  if (keep) {
    console.log(`work folder kept: ${work}`);
  } else {
    const state = (() => {
      try {
        return JSON.parse(readFileSync(path.join(work, 'state.json'), 'utf8')) as State;
      } catch {
        return null;
      }
    })();
    if (state?.schema && process.env.DATABASE_URL) {
      const admin = await openPostgres({ connectionString: process.env.DATABASE_URL, max: 1 });
      await admin.exec(`DROP SCHEMA IF EXISTS ${state.schema} CASCADE`);
      await admin.close();
    }
    rmSync(work, { recursive: true, force: true });
  }
}
if (results.length < Object.keys(phases).length) process.exit(0);

const byPhase = Object.fromEntries(results.map((r) => [r.phase, r]));
const returned = byPhase.return_file!;
const measured = ['send', 'graded_upload', 'return_file'].map((name) => byPhase[name]!);
const summary = {
  pages: PAGES,
  database: process.env.DATABASE_URL ? 'postgres' : 'pglite (in process: counts in RSS)',
  node: process.version,
  phases: results,
  targets: {
    ...TARGETS,
    return_file_ok: returned.seconds <= TARGETS.return_file_seconds,
    rss_ok: Object.fromEntries(measured.map((r) => [r.phase, r.peak_rss_mb <= TARGETS.rss_mb])),
  },
  notes: [
    'peak RSS is sampled every 20 ms while the phase runs, in a process of its own; rss_before_mb is the process before it (modules loaded, database open)',
    'pipeline_only: the scan pipeline (server/pipeline) alone over the same graded scan, no staging or database: most of the graded upload memory is its own',
    'cpu_seconds: this process only; other load on the machine stretches wall seconds, not these',
  ],
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/workflow.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`return file ${returned.seconds} s (target ${TARGETS.return_file_seconds} s): ${summary.targets.return_file_ok ? 'ok' : 'MISSED'}; ` +
  `peak RSS (target ${TARGETS.rss_mb} MB): ${measured.map((r) => `${r.phase} ${r.peak_rss_mb} MB`).join(', ')}`);
