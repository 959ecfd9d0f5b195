// Starts the portal once for all journeys, exactly as a user would: `npm run build` then the
// built server (as `npm run serve` runs it) on its embedded defaults (PGlite, demo data) in a fresh data folder.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SERVER_BUILD_DIR } from '../../server/project-root';
import { freePort, waitForHealth } from '../helpers/live-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const root = join(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  if (process.env.E2E_SKIP_BUILD !== '1' || !existsSync(join(root, 'dist/index.html')) || !existsSync(join(SERVER_BUILD_DIR, 'main.mjs'))) {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, [join(SERVER_BUILD_DIR, 'main.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  await waitForHealth(baseUrl, server, () => output);
  project.provide('baseUrl', baseUrl);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
