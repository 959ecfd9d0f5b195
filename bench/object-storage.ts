// Stored files in object storage (BLOB_STORE=s3://…, s3rver on loopback) against the folder, on
// a 1.5 GB scan. By default, each step in a process of its own (bench/object-storage-copy.ts):
// storing the scan (a multipart upload to S3), and what a job worker does before reading it (a
// copy streamed into its temporary space, opened by mupdf, pages read from all over it). With
// --pipeline, also the whole run through the built server and a worker process on PostgreSQL
// (bench/pipeline-rss.ts): slow, some 5000 pages per setup.
//
//   npx tsx bench/object-storage.ts [--large-mb 1500] [--runs 1] [--pipeline]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeScan } from '../tests/fixtures/make-scans';
import { startS3rver, TEST_BUCKET } from '../tests/helpers/test-object-storage';
import { largeFile } from './large-scan';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1]! : fallback;
};
const LARGE_MB = Number(arg('large-mb', '1500'));
const RUNS = Math.max(1, Number(arg('runs', '1')));
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function measure(file: string, flags: string[]): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/pipeline-rss.ts', file, '--worker-process', ...flags],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: POSTGRES_URL, NODE_NO_WARNINGS: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/pipeline-rss.ts exited ${code}: ${out}`));
      else
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Record<string, number | string>);
    });
  });
}

/** One step of bench/object-storage-copy.ts in a process of its own. */
function step(
  env: Record<string, string>,
  args: string[],
): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/object-storage-copy.ts', ...args],
      {
        cwd: root,
        env: { ...process.env, NODE_NO_WARNINGS: '1', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/object-storage-copy.ts exited ${code}: ${out}`));
      else
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Record<string, number | string>);
    });
  });
}

const standard = await makeScan({ pages: 500, seed: 1 });
const files = [standard.path, ...(LARGE_MB > 0 ? [await largeFile(standard.path, LARGE_MB)] : [])];
const steps: Record<string, number | string | undefined>[] = [];
const storage = await startS3rver();
try {
  for (const file of files) {
    for (let run = 0; run < RUNS; run++) {
      for (const store of ['folder', 'object storage'] as const) {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-object-storage-'));
        const env = {
          DATA_DIR: dataDir,
          ...(store === 'folder'
            ? {}
            : { ...storage.env, BLOB_STORE: `s3://${TEST_BUCKET}/bench-${run}/` }),
        };
        try {
          const put = await step(env, ['put', file]);
          const read = await step(env, ['read', String(put.key)]);
          const row = {
            store,
            file_mb: put.size_mb,
            pages: read.pages,
            put_seconds: put.seconds,
            put_peak_mb: put.rss_peak_mb,
            copy_seconds: read.copy_seconds,
            read_peak_after_copy_mb: read.rss_peak_after_copy_mb,
            read_peak_mb: read.rss_peak_mb,
            idle_mb: read.rss_idle_mb,
          };
          console.log(row);
          steps.push(row);
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    }
  }
} finally {
  await storage.stop();
}
console.table(steps);

const results: Record<string, number | string>[] = [];
for (const file of argv.includes('--pipeline') ? files : []) {
  for (let run = 0; run < RUNS; run++) {
    for (const flags of [[], ['--object-storage']]) {
      const result = await measure(file, flags);
      console.log(result);
      results.push(result);
    }
  }
}
if (results.length > 0)
  console.table(
    results.map((result) => ({
      setup: result.database,
      file_mb: result.size_mb,
      pages: result.pages,
      worker_idle_mb: result.rss_idle_mb,
      worker_peak_mb: result.rss_process_peak_mb,
      worker_mean_mb: result.rss_process_mean_mb,
      server_upload_peak_mb: result.rss_upload_peak_mb,
      pages_per_second: result.pages_per_second,
    })),
  );
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/object-storage.json'),
  `${JSON.stringify({ measured_at: new Date().toISOString(), steps, pipeline: results }, null, 2)}\n`,
);
