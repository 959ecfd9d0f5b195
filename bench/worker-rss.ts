// One measured run for bench/pipeline.ts: the scale setup on PostgreSQL, where the server takes
// uploads and separate job workers (`npm run worker`) process them. The file is uploaded to the
// app in this process with its workers off, then one worker process is started as the README
// starts it and its resident memory sampled from /proc until the file is processed. Prints one
// JSON line like pipeline-rss.ts, the memory being the worker process's.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/worker-rss.ts <file.pdf>
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from '../server/db/migrate';
import { openPostgres } from '../server/db/postgres';
import { loadReferenceData } from '../server/seed/countries';
import { signIn } from '../tests/helpers/sign-in';
import { createPipelineApp } from '../tests/server/pipeline-harness';
import { waitForProcessing } from '../tests/server/pipeline-world';
import { streamUpload } from './stream-upload';

const file = process.argv[2];
const serverUrl = process.env.DATABASE_URL;
if (!file || !serverUrl) {
  console.error('usage: DATABASE_URL=postgres://... npx tsx bench/worker-rss.ts <file.pdf>');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;

// A database of its own: the worker process connects by URL, as it does in production.
const DATABASE = 'portal_bench_worker';
const admin = await openPostgres({ connectionString: serverUrl, max: 1 });
await admin.exec(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
await admin.exec(`CREATE DATABASE ${DATABASE}`);
await admin.close();
const url = new URL(serverUrl);
url.pathname = `/${DATABASE}`;
const databaseUrl = url.toString();

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-worker-'));
const db = await openPostgres({ connectionString: databaseUrl });
await migrate(db);
await loadReferenceData(db);
const h = await createPipelineApp({ db, dataDir, jobs: { work: false }, maxUploadBytes: 1_500_000_000 });
const user = await signIn(h.app, 'bench@test.local', { role: 'scanning_admin', isAdmin: true });
await h.app.listen({ host: '127.0.0.1', port: 0 });
const uploadStarted = performance.now();
const fileId = await streamUpload((h.app.server.address() as AddressInfo).port, user.headers, file);
const uploadSeconds = (performance.now() - uploadStarted) / 1000;

// As `npm run worker` starts it (package.json), without npm's own process in between.
const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: '2', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
const worker = spawn(process.execPath, ['--import', 'tsx', 'server/jobs/worker-main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
const status = (field: 'VmRSS' | 'VmHWM'): number => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};
let idle = 0;
const sampler = setInterval(() => {
  if (idle === 0) idle = status('VmRSS');
}, 200);
const processStarted = performance.now();
const result = await waitForProcessing(h.db, fileId, 6 * 3600_000);
const processSeconds = (performance.now() - processStarted) / 1000;
// The kernel's high-water mark of the worker's resident memory: its peak, sampled or not.
const peak = status('VmHWM');
clearInterval(sampler);
const exited = new Promise((resolve) => worker.once('exit', resolve));
worker.kill('SIGTERM');
await exited;
const { pages } = await h.db.one<{ pages: number }>('SELECT count(*) AS pages FROM pages WHERE file_id = $1', [fileId]);
await h.close();
await db.close();
await rm(dataDir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    file,
    database: `postgres, worker process${process.env.PIPELINE_THREADS === undefined ? '' : `, ${process.env.PIPELINE_THREADS} thr.`}`,
    size_mb: Math.round(statSync(file).size / MB),
    status: result,
    pages: Number(pages),
    rss_idle_mb: Math.round(idle / MB),
    rss_upload_peak_mb: '-',
    rss_process_peak_mb: Math.round(peak / MB),
    upload_seconds: Math.round(uploadSeconds * 10) / 10,
    process_seconds: Math.round(processSeconds * 10) / 10,
    pages_per_second: Math.round((Number(pages) / processSeconds) * 10) / 10,
    cpu_ms_per_page: '-',
  }),
);
process.exit(0);
