// One measured run for bench/pipeline.ts, in its own process so its peak memory is its own:
// the real app on the embedded database, a real HTTP upload streamed from disk (multipart), then
// processing by the in-process worker. Prints one JSON line: resident memory (RSS) before, peak
// during the upload and peak during processing, the times and the CPU time (all threads).
// The database is PGlite, or the PostgreSQL server of DATABASE_URL when set (PGlite alone takes
// some 800 MB of this process; on PostgreSQL the database's memory is another process's).
//
//   npx tsx bench/pipeline-rss.ts <file.pdf>
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/pipeline-rss.ts <file.pdf>
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../server/db/migrate';
import { openDatabase } from '../server/db/open-database';
import { loadReferenceData } from '../server/seed/countries';
import type { AddressInfo } from 'node:net';
import { signIn } from '../tests/helpers/sign-in';
import { createTestDb } from '../tests/helpers/test-db';
import { createPipelineApp, dropJobSchema } from '../tests/server/pipeline-harness';
import { waitForProcessing } from '../tests/server/pipeline-world';
import { streamUpload } from './stream-upload';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx bench/pipeline-rss.ts <file.pdf>');
  process.exit(2);
}

const MB = 1024 * 1024;
let phase: 'idle' | 'upload' | 'process' = 'idle';
const peak = { idle: 0, upload: 0, process: 0 };
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > peak[phase]) peak[phase] = rss;
}, 25);

// PGlite opened as the product opens it, its files in DATA_DIR on disk (the tests' in-memory
// PGlite would count the whole database as this process's memory); PostgreSQL in a schema of
// its own, as the tests use it.
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-rss-'));
const db = process.env.DATABASE_URL ? await createTestDb() : await openDatabase({ databaseUrl: undefined, dataDir });
await migrate(db);
await loadReferenceData(db);
const h = await createPipelineApp({ db, dataDir, jobs: { work: false }, maxUploadBytes: 1_500_000_000 });
const admin = await signIn(h.app, 'bench@test.local', { role: 'scanning_admin', isAdmin: true });
await h.app.listen({ host: '127.0.0.1', port: 0 });
const port = (h.app.server.address() as AddressInfo).port;
peak.idle = process.memoryUsage.rss();

phase = 'upload';
const uploadStarted = performance.now();
const fileId = await streamUpload(port, admin.headers, file);
const uploadSeconds = (performance.now() - uploadStarted) / 1000;

phase = 'process';
const processStarted = performance.now();
const cpuBefore = process.cpuUsage();
await h.app.jobs.start();
const status = await waitForProcessing(h.db, fileId, 6 * 3600_000);
const processSeconds = (performance.now() - processStarted) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const { pages } = await h.db.one<{ pages: number }>('SELECT count(*) AS pages FROM pages WHERE file_id = $1', [fileId]);
clearInterval(sampler);
const database = h.db.kind;
await h.close();
await dropJobSchema(db);
await db.close();
await rm(dataDir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    file,
    database,
    size_mb: Math.round(statSync(file).size / MB),
    status,
    pages: Number(pages),
    rss_idle_mb: Math.round(peak.idle / MB),
    rss_upload_peak_mb: Math.round(peak.upload / MB),
    rss_process_peak_mb: Math.round(peak.process / MB),
    max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    upload_seconds: Math.round(uploadSeconds * 10) / 10,
    process_seconds: Math.round(processSeconds * 10) / 10,
    pages_per_second: Math.round((Number(pages) / processSeconds) * 10) / 10,
    cpu_ms_per_page: Math.round((cpuSeconds * 1000) / Math.max(1, Number(pages))),
  }),
);
process.exit(0);
