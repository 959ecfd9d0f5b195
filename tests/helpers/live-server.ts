// Starting a real server process from outside (the browser journeys, the memory benchmark): a
// free port to give it, and waiting until it answers /healthz.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once `url`/healthz answers OK; `log` (the process's output) goes into the errors. */
export async function waitForHealth(url: string, server: ChildProcess, log: () => string = () => ''): Promise<void> {
  // A first start makes the demo's files before it listens (a few seconds; more on a busy machine).
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}
