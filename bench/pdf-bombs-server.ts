// The server half of bench/pdf-bombs.ts: the built server (as `npm run serve` starts it, embedded
// PGlite, jobs in it) reads each file, uploaded over HTTP as a browser does, while /healthz is
// asked every HEALTHZ_EVERY_MS and each answer timed; the server's resident memory is sampled too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed/demo';
import { signInLive } from '../tests/contract/live-sign-in';
import { freePort, memoryOf, startBuilt, stop, toMb, waitForHealth } from './serve-processes';
import { streamUpload } from './stream-upload';

/** How often /healthz is asked while a file is read (as a load balancer's check would, but often). */
const HEALTHZ_EVERY_MS = 100;

export interface HealthWhileRead {
  file: string;
  read_seconds: number;
  answers: number;
  median_ms: number;
  p99_ms: number;
  slowest_ms: number;
  rss_peak_mb: number;
  too_complex: number;
}

export async function healthWhileRead(files: { name: string; path: string }[]): Promise<HealthWhileRead[]> {
  await buildServer();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-bombs-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startBuilt('main', { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: dataDir, DATABASE_URL: '', DEMO_FILES: 'false' });
  const rows: HealthWhileRead[] = [];
  try {
    await waitForHealth(baseUrl, server);
    const admin = DEMO_ACCOUNTS.find((account) => account.role === 'scanning_admin')!;
    const headers = { cookie: await signInLive(baseUrl, admin.email, DEMO_PASSWORD), origin: baseUrl };
    for (const file of files) {
      // Settled between files: the previous one's memory collected, its workers waiting.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      let rssPeak = 0;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryOf(server.pid!, 'VmRSS'))), 25);
      const started = performance.now();
      const fileId = await streamUpload(port, headers, file.path);
      let reading = true;
      const times: number[] = [];
      const polling = (async () => {
        while (reading) {
          const asked = performance.now();
          const answer = await fetch(`${baseUrl}/healthz`);
          await answer.arrayBuffer();
          if (answer.status !== 200) throw new Error(`/healthz answered ${answer.status}`);
          times.push(performance.now() - asked);
          await new Promise((resolve) => setTimeout(resolve, HEALTHZ_EVERY_MS));
        }
      })();
      let status = 'pending';
      while (status === 'pending') {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const answer = await fetch(`${baseUrl}/api/file/${fileId}`, { headers });
        status = ((await answer.json()) as { process_status: string }).process_status;
      }
      reading = false;
      await polling;
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      const stats = (await (await fetch(`${baseUrl}/api/file/${fileId}/stats`, { headers })).json()) as { reasons: { too_complex: number } };
      times.sort((a, b) => a - b);
      const at = (share: number) => Math.round(times[Math.min(times.length - 1, Math.floor(share * times.length))]! * 10) / 10;
      rows.push({
        file: file.name,
        read_seconds: Math.round(seconds * 10) / 10,
        answers: times.length,
        median_ms: at(0.5),
        p99_ms: at(0.99),
        slowest_ms: Math.round(times.at(-1)! * 10) / 10,
        rss_peak_mb: toMb(rssPeak),
        too_complex: stats.reasons.too_complex,
      });
    }
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
}
