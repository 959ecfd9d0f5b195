// Fair, quick jobs: the portal's own processes (built, started as `npm run serve` and `npm run
// worker` start them), real HTTP uploads streamed from disk.
//   - small behind large, on the embedded default (PGlite, jobs in the server): a 2-page file
//     uploaded while a large one is being read, timed from its upload answered to its status
//     final, with where the large file was by then;
//   - memory when two files are read at once: the server's peak RSS (VmHWM) reading one large
//     file alone, and two large files uploaded together (each run in a fresh server);
//   - takeover, on PostgreSQL (server with JOB_WORKER=off and two worker processes): the worker
//     reading a file is killed with SIGKILL, timed until the other has taken the file's lease and
//     until it has stored a page. Repeated ROUNDS times.
// Prints the figures and writes bench/results/jobs.json.
//
//   npx tsx bench/jobs.ts [--large-pages 1500] [--rounds 3] [--no-postgres]
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildServer } from '../scripts/build-server';
import type { Database } from '../server/db/database';
import { openPostgres } from '../server/db/postgres';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed/demo';
import { signInLive } from '../tests/contract/live-sign-in';
import { makeScan } from '../tests/fixtures/make-scans';
import { freePort, memoryOf, startBuilt, stop, toMb, waitForHealth } from './serve-processes';
import { streamUpload } from './stream-upload';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const LARGE_PAGES = Number(arg('large-pages', '1500'));
const ROUNDS = Number(arg('rounds', '3'));
const POSTGRES = !argv.includes('--no-postgres');
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'portal_bench_jobs';

const round1 = (value: number) => Math.round(value * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `inputs` joined by qpdf (each named once: qpdf would share the objects of a file named twice). */
async function joined(out: string, inputs: string[]): Promise<string> {
  if (existsSync(out)) return out;
  const names = await mkdtemp(path.join(tmpdir(), 'bench-jobs-copies-'));
  const links = inputs.map((input, i) => path.join(names, `part-${i}.pdf`));
  inputs.forEach((input, i) => symlinkSync(path.resolve(input), links[i]!));
  try {
    await run('qpdf', ['--empty', '--pages', ...links, '--', `${out}.tmp`], { maxBuffer: 1 << 26 });
    renameSync(`${out}.tmp`, out);
  } finally {
    await rm(names, { recursive: true, force: true });
  }
  return out;
}

interface Running {
  /** The installation's environment, for worker processes beside the server. */
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  baseUrl: string;
  port: number;
  headers: Record<string, string>;
  server: ChildProcess;
}

/** A fresh installation: data folder (and PostgreSQL database), server started and signed in. */
async function withServer<T>(database: 'pglite' | 'postgres', work: (running: Running) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-jobs-'));
  let databaseUrl = '';
  if (database === 'postgres') {
    await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${DATABASE}`);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${DATABASE}`;
    databaseUrl = url.toString();
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  const server = startBuilt('main', { ...env, JOB_WORKER: database === 'postgres' ? 'off' : 'on' });
  try {
    await waitForHealth(baseUrl, server);
    const admin = DEMO_ACCOUNTS.find((account) => account.role === 'scanning_admin')!;
    const cookie = await signInLive(baseUrl, admin.email, DEMO_PASSWORD);
    // Settled: start-up's garbage collected.
    await sleep(2000);
    return await work({ env, databaseUrl, baseUrl, port, headers: { cookie, origin: baseUrl }, server });
  } finally {
    await stop(server);
    if (database === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = await openPostgres({ connectionString: POSTGRES_URL, max: 1 });
  try {
    await admin.exec(sql);
  } finally {
    await admin.close();
  }
}

async function fileState(running: Running, fileId: string): Promise<{ status: string; pages: number }> {
  const file = (await (await fetch(`${running.baseUrl}/api/file/${fileId}`, { headers: running.headers })).json()) as { process_status: string };
  const stats = (await (await fetch(`${running.baseUrl}/api/file/${fileId}/stats`, { headers: running.headers })).json()) as { pages: number };
  return { status: file.process_status, pages: stats.pages };
}

async function until(running: Running, fileId: string, done: (state: { status: string; pages: number }) => boolean, everyMs = 200) {
  for (;;) {
    if (running.server.exitCode !== null) throw new Error(`the server exited (${running.server.exitCode})`);
    const state = await fileState(running, fileId);
    if (done(state)) return state;
    await sleep(everyMs);
  }
}

const finished = (state: { status: string }) => state.status !== 'pending';

/** One large file alone (small: null), or with a small file uploaded once it is being read, or with another large file. */
async function embedded(large: string, other: { small: string } | { large: string } | null) {
  return withServer('pglite', async (running) => {
    const started = performance.now();
    const largeId = await streamUpload(running.port, running.headers, large);
    let small: Record<string, number | string> | null = null;
    let secondId: string | null = null;
    if (other && 'small' in other) {
      await until(running, largeId, (state) => state.pages >= 20 || finished(state));
      const uploaded = performance.now();
      const smallId = await streamUpload(running.port, running.headers, other.small);
      const stored = performance.now();
      const state = await until(running, smallId, finished, 50);
      const done = performance.now();
      const largeThen = await fileState(running, largeId);
      small = {
        status: state.status,
        upload_seconds: round1((stored - uploaded) / 1000),
        seconds_after_stored: round1((done - stored) / 1000),
        large_status_then: largeThen.status,
        large_pages_then: largeThen.pages,
      };
    } else if (other) {
      secondId = await streamUpload(running.port, running.headers, other.large);
    }
    const largeState = await until(running, largeId, finished, 500);
    const second = secondId === null ? null : await until(running, secondId, finished, 500);
    return {
      large: { status: largeState.status, pages: largeState.pages, seconds: round1((performance.now() - started) / 1000) },
      ...(second ? { second_large: { status: second.status, pages: second.pages } } : {}),
      ...(small ? { small } : {}),
      rss_peak_mb: toMb(memoryOf(running.server.pid!, 'VmHWM')),
    };
  });
}

/** PostgreSQL: the worker reading a file is killed; the other worker's takeover is timed. */
async function takeover(large: string) {
  return withServer('postgres', async (running) => {
    const db: Database = await openPostgres({ connectionString: running.databaseUrl, max: 1 });
    const workers: ChildProcess[] = [];
    try {
      const first = startBuilt('worker-main', running.env);
      workers.push(first);
      const fileId = await streamUpload(running.port, running.headers, large);
      const lease = () =>
        db.one<{ token: string | null; pages: number }>(
          `SELECT (SELECT token FROM job_leases WHERE job = 'process_service_center_upload' AND target_id = f.id) AS token,
                  (SELECT count(*) FROM pages WHERE file_id = f.id) AS pages FROM files f WHERE f.id = $1`,
          [fileId],
        );
      while (Number((await lease()).pages) < 20) await sleep(100);
      const second = startBuilt('worker-main', running.env);
      workers.push(second);
      // Started and listening for jobs, while the first worker holds the file.
      await sleep(5000);
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      const killed = performance.now();
      await exited;
      const before = await lease();
      let leaseTaken: number | null = null;
      for (;;) {
        const now = await lease();
        if (leaseTaken === null && now.token !== null && now.token !== before.token) leaseTaken = performance.now();
        if (Number(now.pages) > Number(before.pages)) break;
        if (performance.now() - killed > 180_000) throw new Error('no takeover within 180 s');
        await sleep(100);
      }
      const pageStored = performance.now();
      return {
        pages_at_kill: Number(before.pages),
        lease_taken_seconds: round1(((leaseTaken ?? pageStored) - killed) / 1000),
        next_page_seconds: round1((pageStored - killed) / 1000),
      };
    } finally {
      // The killed one is gone already (stop would wait for its exit again).
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) await stop(worker);
      await db.close();
    }
  });
}

const unit = await makeScan({ pages: 30, seed: 7 });
const tiny = await makeScan({ pages: 2, seed: 21 });
const copies = Math.max(1, Math.round(LARGE_PAGES / unit.pages.length));
const largeDir = path.dirname(unit.path);
const largeA = await joined(path.join(largeDir, `jobs-large-${copies}x-${path.basename(unit.path)}`), Array.from({ length: copies }, () => unit.path));
// Another file of the same size (a different first page: uploads of the same bytes are refused).
const largeB = await joined(path.join(largeDir, `jobs-large-${copies}x-b-${path.basename(unit.path)}`), [tiny.path, ...Array.from({ length: copies }, () => unit.path)]);
console.log(`large files: ${copies * unit.pages.length} pages`);
await buildServer();

const alone = await embedded(largeA, null);
console.log('one large file alone', alone);
const withSmall = await embedded(largeA, { small: tiny.path });
console.log('a 2-page file while the large one is read', withSmall);
const twoLarge = await embedded(largeA, { large: largeB });
console.log('two large files at once', twoLarge);

const takeovers: Awaited<ReturnType<typeof takeover>>[] = [];
if (POSTGRES) {
  for (let i = 0; i < ROUNDS; i++) {
    takeovers.push(await takeover(largeA));
    console.log('takeover after SIGKILL (PostgreSQL, two worker processes)', takeovers.at(-1));
  }
}

const results = {
  measured_at: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  large_pages: copies * unit.pages.length,
  embedded_one_large_file: alone,
  embedded_small_file_while_large_is_read: withSmall,
  embedded_two_large_files_at_once: twoLarge,
  postgres_takeover_after_sigkill: takeovers,
};
console.log('');
console.log(`2-page file while a ${results.large_pages}-page file is read (PGlite): done ${withSmall.small?.seconds_after_stored} s after its upload was stored; the large file then ${withSmall.small?.large_status_then} at page ${withSmall.small?.large_pages_then}`);
console.log(`peak RSS of the server (MB): one large file ${alone.rss_peak_mb}, two large files at once ${twoLarge.rss_peak_mb}; large file ${alone.large.seconds} s alone, both ${twoLarge.large.seconds} s`);
if (takeovers.length > 0) {
  const taken = takeovers.map((t) => t.lease_taken_seconds);
  const page = takeovers.map((t) => t.next_page_seconds);
  console.log(`takeover after SIGKILL (PostgreSQL): lease taken ${Math.min(...taken)}-${Math.max(...taken)} s, next page stored ${Math.min(...page)}-${Math.max(...page)} s`);
}
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/jobs.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nwrote bench/results/jobs.json');
process.exit(0);
