// What receiving an upload costs the server in memory, resumable (tus PATCH) beside the multipart
// call as the baseline, at two sizes: the server built and started as `npm run serve` starts it,
// a real sign-in, each body streamed from disk, the server's resident memory sampled while the
// bytes arrive. Flat memory means the large upload's peak is the small one's, whatever the size.
// Results in bench/results/resumable-upload.json.
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed/demo';
import { signInLive } from '../tests/contract/live-sign-in';
import { freePort, memoryOf, startBuilt, stop, toMb, waitForHealth } from './serve-processes';
import { streamUpload } from './stream-upload';

const MB = 1024 * 1024;
const SIZES_MB = [64, 768];

/** A file of `mb` MB that starts like a PDF (its content does not matter: only its arrival is measured). */
async function makeFile(dir: string, mb: number): Promise<string> {
  const file = path.join(dir, `upload-${mb}.pdf`);
  const handle = await open(file, 'w');
  const block = Buffer.alloc(MB);
  for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
  block.write('%PDF-1.4\n', 0);
  for (let i = 0; i < mb; i++) await handle.write(block);
  await handle.close();
  return file;
}

/** Creates a resumable upload and sends the whole file in one PATCH, as the browser does. */
async function tusUpload(baseUrl: string, headers: Record<string, string>, file: string, size: number): Promise<void> {
  const metadata = [['kind', 'service_center'], ['name', 'Bench upload'], ['filename', 'bench.pdf'], ['answer_sheet_page_length', '0']]
    .map(([key, value]) => `${key} ${Buffer.from(value!).toString('base64')}`)
    .join(',');
  const created = await fetch(`${baseUrl}/api/uploads/resumable`, {
    method: 'POST',
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata },
  });
  if (created.status !== 201) throw new Error(`creation answered ${created.status}: ${await created.text()}`);
  const location = new URL(created.headers.get('location')!, baseUrl);
  await new Promise<void>((resolve, reject) => {
    const request = http.request(
      location,
      {
        method: 'PATCH',
        headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': size },
      },
      (response) => {
        response.resume();
        // The last byte hands the upload on: a refusal (this file is no real PDF) still means every byte arrived.
        response.on('end', () => (response.statusCode === 204 || response.statusCode === 400 ? resolve() : reject(new Error(`PATCH answered ${response.statusCode}`))));
      },
    );
    request.on('error', reject);
    createReadStream(file).pipe(request);
  });
}

await buildServer();
const dir = await mkdtemp(path.join(tmpdir(), 'bench-resumable-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = startBuilt('main', { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '', DEMO_FILES: 'false' });
const rows: { size_mb: number; way: string; rss_before_mb: number; rss_peak_mb: number; seconds: number }[] = [];
try {
  await waitForHealth(baseUrl, server);
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'scanning_admin')!;
  const headers = { cookie: await signInLive(baseUrl, admin.email, DEMO_PASSWORD), origin: baseUrl };
  await new Promise((resolve) => setTimeout(resolve, 2000));
  for (const mb of SIZES_MB) {
    const file = await makeFile(dir, mb);
    // Side by side: the multipart call, then the resumable one, on the same file.
    for (const way of ['multipart', 'resumable'] as const) {
      const before = memoryOf(server.pid!, 'VmRSS');
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(server.pid!, 'VmRSS'))), 20);
      const started = performance.now();
      if (way === 'multipart') await streamUpload(port, headers, file).catch(() => undefined);
      else await tusUpload(baseUrl, headers, file, mb * MB);
      clearInterval(sampler);
      rows.push({ size_mb: mb, way, rss_before_mb: toMb(before), rss_peak_mb: toMb(peak), seconds: Math.round((performance.now() - started) / 100) / 10 });
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    await rm(file);
  }
} finally {
  await stop(server);
  await rm(dir, { recursive: true, force: true });
}
const row = (mb: number, way: string) => rows.find((r) => r.size_mb === mb && r.way === way)!;
const [small, large] = SIZES_MB as [number, number];
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const result = {
  rows,
  // Peak resident memory of the server while the bytes arrive: flat means about 1.
  resumable_peak_large_over_small: ratio(row(large, 'resumable').rss_peak_mb, row(small, 'resumable').rss_peak_mb),
  resumable_peak_over_multipart_at_large: ratio(row(large, 'resumable').rss_peak_mb, row(large, 'multipart').rss_peak_mb),
  resumable_time_over_multipart_at_large: ratio(row(large, 'resumable').seconds, row(large, 'multipart').seconds),
};
console.table(rows);
console.log(JSON.stringify(result));
mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(path.join(import.meta.dirname, 'results', 'resumable-upload.json'), `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
