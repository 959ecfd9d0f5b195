// Stored files in object storage (BLOB_STORE=s3://…) against the folder: the memory of a job
// worker process reading a 1.5 GB scan from S3 (it streams the object into its own temporary
// space and reads pages from there, as from the folder), and of the server streaming the upload
// into S3. Each setup runs bench/pipeline-rss.ts in a process of its own, on PostgreSQL.
//
//   npx tsx bench/object-storage.ts [--large-mb 1500] [--runs 1]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeScan } from '../tests/fixtures/make-scans';
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/pipeline-rss.ts', file, '--worker-process', ...flags], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: POSTGRES_URL, NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/pipeline-rss.ts exited ${code}: ${out}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Record<string, number | string>);
    });
  });
}

const standard = await makeScan({ pages: 500, seed: 1 });
const files = [standard.path, ...(LARGE_MB > 0 ? [await largeFile(standard.path, LARGE_MB)] : [])];
const results: Record<string, number | string>[] = [];
for (const file of files) {
  for (let run = 0; run < RUNS; run++) {
    for (const flags of [[], ['--object-storage']]) {
      const result = await measure(file, flags);
      console.log(result);
      results.push(result);
    }
  }
}
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
writeFileSync(path.join(root, 'bench/results/object-storage.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), results }, null, 2)}\n`);
