// One measured run for bench/pipeline.ts: the portal's own processes, built and started as
// `npm run serve` and `npm run worker` start them (bench/serve-processes.ts), a real sign-in and
// a real HTTP upload streamed from disk, then processing until the file's status is final. The
// memory is the kernel's figure for the process that reads the pages: VmHWM, its peak resident
// set over the whole run. Prints one JSON line.
//
//   npx tsx bench/pipeline-rss.ts <file.pdf>          the embedded default: PGlite, jobs in the server
//   DATABASE_URL=postgres://... npx tsx bench/pipeline-rss.ts <file.pdf>
//                                                     the server on PostgreSQL, jobs in it
//   DATABASE_URL=postgres://... npx tsx bench/pipeline-rss.ts <file.pdf> --worker-process
//                                                     the scale setup: the server with JOB_WORKER=off
//                                                     and one job worker process, whose memory counts
//   … --worker-process --object-storage              the same with stored files in object storage
//                                                     (s3rver on loopback, in this process)
// PIPELINE_THREADS, when set, is passed on.
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server';
import { openPostgres } from '../server/db/postgres';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed/demo';
import { signInLive } from '../tests/contract/live-sign-in';
import { startS3rver, TEST_BUCKET, type TestObjectStorage } from '../tests/helpers/test-object-storage';
import { cpuSecondsOf, freePort, memoryOf, startBuilt, stop, toMb, waitForHealth } from './serve-processes';
import { streamUpload } from './stream-upload';

const file = process.argv[2];
const workerProcess = process.argv.includes('--worker-process');
const objectStorage = process.argv.includes('--object-storage');
const serverUrl = process.env.DATABASE_URL || undefined;
if (!file || (workerProcess && !serverUrl)) {
  console.error('usage: [DATABASE_URL=postgres://...] npx tsx bench/pipeline-rss.ts <file.pdf> [--worker-process (PostgreSQL only)]');
  process.exit(2);
}

await buildServer();
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-rss-'));
// A database of its own on PostgreSQL, created empty: the server migrates it and adds the demo
// data (and its accounts) as on a first start.
let databaseUrl = '';
// Named by process: two benches on one PostgreSQL (other worktrees) must not drop each other's.
const DATABASE = `portal_bench_rss_${process.pid}`;
async function adminQuery(sql: string): Promise<void> {
  const admin = await openPostgres({ connectionString: serverUrl!, max: 1 });
  try {
    await admin.exec(sql);
  } finally {
    await admin.close();
  }
}
if (serverUrl) {
  await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  databaseUrl = url.toString();
}

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
// The demo accounts, not the demo's files: making those loads the drawing code (memory measured here).
const storage: TestObjectStorage | null = objectStorage ? await startS3rver() : null;
const env = {
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: baseUrl,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  // The demo accounts to sign in with: made on PostgreSQL only when asked.
  DEMO_DATA: 'true',
  DEMO_FILES: 'false',
  ...(storage === null ? {} : { ...storage.env, BLOB_STORE: `s3://${TEST_BUCKET}/bench/` }),
};
const server = startBuilt('main', { ...env, JOB_WORKER: workerProcess ? 'off' : 'on' });
const worker = workerProcess ? startBuilt('worker-main', env) : null;
const reader = worker ?? server;
try {
  await waitForHealth(baseUrl, server);
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'scanning_admin')!;
  const cookie = await signInLive(baseUrl, admin.email, DEMO_PASSWORD);
  const headers = { cookie, origin: baseUrl };
  // Settled: start-up's garbage collected, the worker (if any) listening for jobs.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = memoryOf(reader.pid!, 'VmRSS');

  let uploadPeak = 0;
  const sampler = setInterval(() => (uploadPeak = Math.max(uploadPeak, memoryOf(server.pid!, 'VmRSS'))), 25);
  const cpuBefore = cpuSecondsOf(reader.pid!);
  const uploadStarted = performance.now();
  const fileId = await streamUpload(port, headers, file);
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  clearInterval(sampler);

  // The peak alone varies by tens of MB between runs of the same build (two heavy pages meeting
  // or not): the mean over the processing is the steadier figure to compare changes by.
  const processSamples: number[] = [];
  const processSampler = setInterval(() => processSamples.push(memoryOf(reader.pid!, 'VmRSS')), 25);
  const processStarted = performance.now();
  let status = 'pending';
  while (status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (reader.exitCode !== null) throw new Error(`the process reading pages exited (${reader.exitCode})`);
    const answer = await fetch(`${baseUrl}/api/file/${fileId}`, { headers });
    status = ((await answer.json()) as { process_status: string }).process_status;
  }
  const processSeconds = (performance.now() - processStarted) / 1000;
  clearInterval(processSampler);
  const processMean = processSamples.reduce((sum, rss) => sum + rss, 0) / Math.max(1, processSamples.length);
  const cpuSeconds = cpuSecondsOf(reader.pid!) - cpuBefore;
  const peak = memoryOf(reader.pid!, 'VmHWM');
  const stats = (await (await fetch(`${baseUrl}/api/file/${fileId}/stats`, { headers })).json()) as { pages: number };

  console.log(
    JSON.stringify({
      file,
      database: `${serverUrl ? 'postgres' : 'pglite'}${workerProcess ? ', worker process' : ''}${objectStorage ? ', object storage' : ''}${process.env.PIPELINE_THREADS === undefined ? '' : `, ${process.env.PIPELINE_THREADS} thr.`}`,
      size_mb: toMb(statSync(file).size),
      status,
      pages: stats.pages,
      rss_idle_mb: toMb(idle),
      rss_upload_peak_mb: toMb(uploadPeak),
      rss_process_peak_mb: toMb(peak),
      rss_process_mean_mb: toMb(processMean),
      upload_seconds: Math.round(uploadSeconds * 10) / 10,
      process_seconds: Math.round(processSeconds * 10) / 10,
      pages_per_second: Math.round((stats.pages / processSeconds) * 10) / 10,
      cpu_ms_per_page: Math.round((cpuSeconds * 1000) / Math.max(1, stats.pages)),
    }),
  );
} finally {
  if (worker) await stop(worker);
  await stop(server);
  if (serverUrl) await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await rm(dataDir, { recursive: true, force: true });
  await storage?.stop();
}
process.exit(0);
