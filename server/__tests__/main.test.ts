// `npm run serve` as a user runs it: a real process on an empty data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', OIDC_ISSUER: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(check: () => boolean, what: string, running: Running, ms = 45_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${running.output()}`);
    if (running.child.exitCode !== null) throw new Error(`Server exited (${running.child.exitCode}):\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('server/main.ts', () => {
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-main-'));
    port = await freePort();
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts on an empty data folder, seeds once, refuses a second process, and shuts down cleanly', async () => {
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
    const first = startServer(env);
    await waitFor(() => first.output().includes('is running at'), 'the start banner', first, 150_000);
    expect(first.output()).toContain(`Bible Study Portal is running at http://localhost:${port}`);
    expect(first.output()).toContain('demo data created');
    expect(first.output()).toMatch(/admin@demo\.local\s+scanning_admin/);
    expect(first.output()).toMatch(/coordinator@demo\.local\s+study_helper_coordinator/);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/me`)).status).toBe(401);

    // PGlite's files take one process at a time.
    const second = startServer({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(2);
    expect(second.output()).toContain('is in use by process');

    first.child.kill('SIGTERM');
    // The signal too: a process that died of one (a crash while closing) says which, with its output.
    expect({ code: await first.exited, signal: first.child.signalCode }, first.output()).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain('shutting down');

    // A restart keeps the data and does not seed again.
    const again = startServer(env);
    await waitFor(() => again.output().includes('is running at'), 'the second start', again, 150_000);
    expect(again.output()).not.toContain('demo data created');
    again.child.kill('SIGINT');
    expect({ code: await again.exited, signal: again.child.signalCode }, again.output()).toEqual({ code: 0, signal: null });
  }, 360_000);

  it('makes demo accounts only in demo mode, and warns of them on a public address', async () => {
    const ownDir = await mkdtemp(path.join(tmpdir(), 'portal-main-'));
    const env = { DATA_DIR: ownDir, PORT: String(await freePort()), HOST: '127.0.0.1', PUBLIC_URL: 'https://portal.example.org', DEMO_FILES: 'false' };
    const run = async (extra: Record<string, string>) => {
      const running = startServer({ ...env, ...extra });
      await waitFor(() => running.output().includes('is running at'), 'the start banner', running, 150_000);
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      return running.output();
    };
    try {
      // First start without the demo: none then, nor on a later start that did not make the database.
      const first = await run({ DEMO_DATA: 'false' });
      expect(first).not.toContain('demo data created');
      const second = await run({});
      expect(second).not.toContain('demo data created');
      expect(second).not.toContain('admin@demo.local');
      // Asked for: made, and a public PUBLIC_URL with demo accounts is warned of.
      const asked = await run({ DEMO_DATA: 'true' });
      expect(asked).toContain('demo data created');
      expect(asked).toContain('demo accounts with the password');
    } finally {
      await rm(ownDir, { recursive: true, force: true });
    }
  }, 480_000);

  it('explains a bad configuration without a stack trace', async () => {
    const broken = startServer({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(await broken.exited).toBe(2);
    expect(broken.output()).toContain('Invalid configuration');
    expect(broken.output()).toContain('PORT must be an integer');
    expect(broken.output()).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);
});
