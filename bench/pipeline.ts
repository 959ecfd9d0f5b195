// Scan pipeline benchmark: end-to-end pages/s of a generated scan (upload stored → every sheet in
// the database → progress done) next to the common scripted baseline (`pdfimages -j` + `zbarimg`)
// on the same file in the same run; codes read on a standard and a harsh set; resident memory
// while uploading and processing a large file (made on demand by joining copies of the scan), in
// the app's own process (PGlite, PostgreSQL) and in a job worker process of its own (PostgreSQL).
// Prints a table and writes bench/results/pipeline.json.
//
//   npx tsx bench/pipeline.ts [--pages 500] [--harsh-pages 200] [--large-mb 1500 | --large-mb 0]
//                             [--slope 200,600]   (RSS at several sizes instead of one large file)
//                             [--runs 2]          (times each memory figure is measured)
//                             [--more]            (also PostgreSQL in the server, PIPELINE_THREADS 2)
//                             [--no-memory]       (speed and codes only)
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SERVICE_CENTER_CODE_PREFIXES } from '../server/jobs/job-types';
import { migrate } from '../server/db/migrate';
import { openDatabase } from '../server/db/open-database';
import { readCodeText } from '../server/domain/codes';
import { loadReferenceData } from '../server/seed/countries';
import { processPages } from '../server/pipeline/process-pages';
import { pageWorkerScript } from '../server/pipeline/page-pool';
import { makeScan, type MadeScan } from '../tests/fixtures/make-scans';
import { largeFile } from './large-scan';
import { signIn } from '../tests/helpers/sign-in';
import { createPipelineApp } from '../tests/server/pipeline-harness';
import { expectedSplit, seedScanWorld, sendUpload, sseMessages, uploadRequest } from '../tests/server/pipeline-world';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const PAGES = Number(arg('pages', '500'));
const HARSH_PAGES = Number(arg('harsh-pages', '200'));
const LARGE_MB = Number(arg('large-mb', '1500'));
const SLOPE_MB = arg('slope', '').split(',').filter(Boolean).map(Number);

interface Rate {
  read: number;
  of: number;
}
const pct = (rate: Rate) => `${rate.read}/${rate.of} (${((100 * rate.read) / Math.max(1, rate.of)).toFixed(1)}%)`;

/** Pages whose printed code of an expected kind was read correctly. */
function readRate(made: MadeScan, found: Map<number, string | null>): Rate {
  const withCode = made.pages.filter((page) => page.code !== null);
  const read = withCode.filter((page) => found.get(page.page_number) === `${page.code!.prefix}/${page.code!.id}`).length;
  return { read, of: withCode.length };
}

async function endToEnd(made: MadeScan) {
  // PGlite on disk in a data folder, as `npm start` opens it (the tests' in-memory one differs).
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-e2e-'));
  const db = await openDatabase({ databaseUrl: undefined, dataDir });
  await migrate(db);
  await loadReferenceData(db);
  const h = await createPipelineApp({ db, dataDir, jobs: { work: true, recoverySweepSeconds: 30, leaseSeconds: 60, progressPollMs: 250 } });
  try {
    const world = await seedScanWorld(h.db, made, {});
    const admin = await signIn(h.app, 'bench@test.local', { role: 'scanning_admin', isAdmin: true });
    // Outside the measured span, what a running server has already done or a client does: the
    // request's body, assembled in memory (a browser streams the file); the job queue, which a
    // server starts at boot once it has run jobs (a first-ever upload starts it); the page
    // workers' script, which the built server has from its build and a run under tsx bundles once.
    const request = uploadRequest(admin, readFileSync(made.path), { name: 'Bench' });
    await h.app.jobs.start();
    await pageWorkerScript();
    const started = performance.now();
    const response = await sendUpload(h.app, request);
    if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(response.body)}`);
    const stored = performance.now();
    const fileId = response.body.id!;
    const progress = await h.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
    const done = performance.now();
    const last = sseMessages(progress.body).at(-1) as { status: string; completed: number };
    const sheets = await h.db.one<{ n: number }>('SELECT count(*) AS n FROM answer_sheets WHERE file_id = $1', [fileId]);
    const expectedSheets = expectedSplit(made, world, 0).sheets.length;
    const pages = await h.db.query<{ page_number: number; code_prefix: string | null; code_id: string | null }>(
      'SELECT page_number, code_prefix, code_id FROM pages WHERE file_id = $1',
      [fileId],
    );
    const found = new Map(pages.map((page) => [page.page_number, page.code_prefix ? `${page.code_prefix}/${page.code_id}` : null]));
    return {
      database: `${h.db.kind} on disk`,
      status: last.status,
      pages: made.pages.length,
      sheets: Number(sheets.n),
      expected_sheets: expectedSheets,
      upload_stored_seconds: round((stored - started) / 1000),
      total_seconds: round((done - started) / 1000),
      pages_per_second: round(made.pages.length / ((done - started) / 1000)),
      // The same, counted from the moment the upload is stored (the file's id answered).
      pages_per_second_after_stored: round(made.pages.length / ((done - stored) / 1000)),
      codes: readRate(made, found),
    };
  } finally {
    await h.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The scripted baseline: extract embedded images, then zbarimg on all of them (one process each tool). */
async function baseline(made: MadeScan) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-zbar-'));
  try {
    const started = performance.now();
    await run('pdfimages', ['-j', '-p', made.path, path.join(dir, 'img')], { maxBuffer: 1 << 26 });
    const extracted = performance.now();
    const images = readdirSync(dir).sort();
    let xml = '';
    try {
      xml = (await run('zbarimg', ['--xml', '-q', ...images.map((name) => path.join(dir, name))], { maxBuffer: 1 << 28 })).stdout;
    } catch (error) {
      // zbarimg exits 4 when some images have no symbol; its output is still complete.
      const failed = error as { code?: number | string; stdout?: string };
      if (failed.code !== 4) throw new Error(`zbarimg failed (${String(failed.code)}): is zbar-tools installed?`, { cause: error });
      xml = failed.stdout ?? '';
    }
    const finished = performance.now();
    const found = new Map<number, string | null>();
    for (const source of xml.split('<source ').slice(1)) {
      const name = /href='([^']+)'/.exec(source)?.[1] ?? '';
      const page = Number(/img-(\d+)-\d+\./.exec(name)?.[1] ?? NaN);
      for (const data of source.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)) {
        const code = readCodeText(data[1]!).code;
        if (code && (SERVICE_CENTER_CODE_PREFIXES as readonly string[]).includes(code.prefix) && !found.get(page)) found.set(page, `${code.prefix}/${code.id}`);
      }
    }
    return {
      seconds: round((finished - started) / 1000),
      extract_seconds: round((extracted - started) / 1000),
      pages_per_second: round(made.pages.length / ((finished - started) / 1000)),
      codes: readRate(made, found),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The pipeline alone (no database, no page images) on a set: read rate and speed. */
async function pipelineOnly(made: MadeScan) {
  const started = performance.now();
  const result = await processPages(made.path, { expectedPrefixes: SERVICE_CENTER_CODE_PREFIXES, pageImage: false });
  const seconds = (performance.now() - started) / 1000;
  const found = new Map(result.pages.map((page) => [page.page_number, page.code ? `${page.code.prefix}/${page.code.id}` : null]));
  return { seconds: round(seconds), pages_per_second: round(made.pages.length / seconds), codes: readRate(made, found) };
}

/** PostgreSQL for the second memory figure (the database's memory is then its own process's). */
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `threads`: PIPELINE_THREADS for the run (undefined: the default). */
function measureRss(file: string, database: 'pglite' | 'postgres', threads?: number): Promise<Record<string, number | string>> {
  return measureIn(file, database, threads, []);
}

/** The scale setup: a job worker process of its own (`npm run worker`) on PostgreSQL. */
function measureWorkerProcess(file: string, threads?: number): Promise<Record<string, number | string>> {
  return measureIn(file, 'postgres', threads, ['--worker-process']);
}

/** One run of bench/pipeline-rss.ts, in a process of its own. `threads`: PIPELINE_THREADS (undefined: the default). */
function measureIn(file: string, database: 'pglite' | 'postgres', threads: number | undefined, flags: string[]): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    if (threads === undefined) delete env.PIPELINE_THREADS;
    else env.PIPELINE_THREADS = String(threads);
    // The embedded setup (PGlite in the server's process) is what runs on one machine.
    if (database === 'pglite') delete env.DATABASE_URL;
    else env.DATABASE_URL = POSTGRES_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/pipeline-rss.ts', file, ...flags], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`bench/pipeline-rss.ts exited ${code}: ${out}`));
      else resolve(JSON.parse(line) as Record<string, number | string>);
    });
  });
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

const standard = await makeScan({ pages: PAGES, seed: 1 });
const harsh = await makeScan({ pages: HARSH_PAGES, seed: 7, harsh: true });
const sizeMb = Math.round(statSync(standard.path).size / 1e6);
console.log(`standard set: ${standard.pages.length} pages, ${sizeMb} MB; harsh set: ${harsh.pages.length} pages`);

const e2e = await endToEnd(standard);
console.log('end to end', e2e);
const zbarStandard = await baseline(standard);
const zbarHarsh = await baseline(harsh);
const oursHarsh = await pipelineOnly(harsh);
console.log('baseline', zbarStandard, zbarHarsh, 'pipeline harsh', oursHarsh);

const MEMORY = !argv.includes('--no-memory');
/** Each memory figure is measured this many times: a peak varies by tens of MB between runs. */
const RUNS = Math.max(1, Number(arg('runs', '2')));
/** Also the server on PostgreSQL reading files itself, and other PIPELINE_THREADS (once each). */
const MORE = argv.includes('--more');
const memory: Record<string, number | string>[] = [];
const memoryPostgres: Record<string, number | string>[] = [];
const memoryThreads: Record<string, number | string>[] = [];
const memoryWorker: Record<string, number | string>[] = [];
const sizes = !MEMORY ? [] : SLOPE_MB.length > 0 ? SLOPE_MB : LARGE_MB > 0 ? [LARGE_MB] : [];
const files = !MEMORY ? [] : [standard.path, ...(await Promise.all(sizes.map((mb) => largeFile(standard.path, mb))))];
for (const file of files) {
  for (let run = 0; run < RUNS; run++) {
    memory.push(await measureRss(file, 'pglite'));
    console.log('memory', memory.at(-1));
    memoryWorker.push(await measureWorkerProcess(file));
    console.log('memory', memoryWorker.at(-1));
  }
  if (MORE) {
    memoryPostgres.push(await measureRss(file, 'postgres'));
    memoryThreads.push(await measureRss(file, 'pglite', 2));
  }
}
const peaks = (rows: Record<string, number | string>[], sizeMb: number) =>
  rows.filter((m) => m.size_mb === sizeMb).map((m) => Number(m.rss_process_peak_mb));
let slope: number | null = null;
let flatness: number | null = null;
if (files.length >= 2) {
  const small = Number(memory[0]!.size_mb);
  const large = Number(memory.at(-1)!.size_mb);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  slope = round((mean(peaks(memory, large)) - mean(peaks(memory, small))) / ((large - small) / 1000));
  // The largest peak at one size against the smallest at the other, in per cent.
  flatness = round((100 * Math.max(...peaks(memory, large))) / Math.min(...peaks(memory, small)) - 100);
}

const rows: [string, string, string, string][] = [
  ['', 'pages/s', `codes read (${PAGES} standard)`, `codes read (${HARSH_PAGES} harsh)`],
  [`portal end to end (${e2e.database})`, String(e2e.pages_per_second), pct(e2e.codes), `${pct(oursHarsh.codes)} (pipeline only)`],
  ['pdfimages -j + zbarimg', String(zbarStandard.pages_per_second), pct(zbarStandard.codes), pct(zbarHarsh.codes)],
];
console.log('');
for (const row of rows) console.log(`${row[0].padEnd(34)} ${row[1].padStart(8)}  ${row[2].padEnd(26)} ${row[3]}`);
console.log(`\nend to end: upload stored in ${e2e.upload_stored_seconds} s, all ${e2e.sheets} sheets (expected ${e2e.expected_sheets}) and progress done at ${e2e.total_seconds} s`);
console.log(`from the upload stored to progress done: ${e2e.pages_per_second_after_stored} pages/s`);
console.log('\nmemory (RSS, MB)       file MB  pages  idle  upload peak  processing peak  upload s  processing s  CPU ms/page');
for (const m of [...memory, ...memoryWorker, ...memoryPostgres, ...memoryThreads]) {
  console.log(
    `${String(m.database).padEnd(22)} ${String(m.size_mb).padStart(7)} ${String(m.pages).padStart(6)} ${String(m.rss_idle_mb).padStart(5)} ${String(m.rss_upload_peak_mb).padStart(12)} ${String(m.rss_process_peak_mb).padStart(16)} ${String(m.upload_seconds).padStart(9)} ${String(m.process_seconds).padStart(13)} ${String(m.cpu_ms_per_page).padStart(12)}`,
  );
}
if (slope !== null) console.log(`embedded server: processing peak RSS grows ${slope} MB per GB of file; largest large-file peak ${flatness}% over the smallest small-file one`);

const results = {
  measured_at: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  standard_set: { pages: standard.pages.length, size_mb: sizeMb, seed: standard.seed },
  harsh_set: { pages: harsh.pages.length, seed: harsh.seed },
  end_to_end: e2e,
  baseline_pdfimages_zbarimg: { standard: zbarStandard, harsh: zbarHarsh },
  pipeline_only_harsh: oursHarsh,
  memory,
  memory_postgres: memoryPostgres,
  memory_postgres_worker_process: memoryWorker,
  memory_other_threads: memoryThreads,
  rss_slope_mb_per_gb: slope,
  rss_large_over_small_percent: flatness,
};
// A speed-only run keeps its own file: the last full run's figures stay where they are.
const resultsFile = MEMORY ? 'bench/results/pipeline.json' : 'bench/results/pipeline-speed.json';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, resultsFile), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${resultsFile}`);
