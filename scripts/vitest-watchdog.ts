// Runs vitest and watches it: a run that prints nothing for STALL_SECONDS is stuck (seen once:
// a test file idling forever at 0% CPU in a fresh clone, cause not found yet). The stuck run is
// killed and started once more, loudly, so a stall cannot hold CI for its whole 90 minutes.
// A failing run is never retried: only silence is.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const STALL_SECONDS = Number(process.env.VITEST_STALL_SECONDS ?? 240);
const root = join(import.meta.dirname, '..');
const args = ['run', ...process.argv.slice(2)];

function runOnce(): Promise<{ code: number; stalled: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let last = Date.now();
    let stalled = false;
    const seen = (chunk: Buffer, out: NodeJS.WriteStream) => {
      last = Date.now();
      out.write(chunk);
    };
    child.stdout!.on('data', (c: Buffer) => seen(c, process.stdout));
    child.stderr!.on('data', (c: Buffer) => seen(c, process.stderr));
    const timer = setInterval(() => {
      if (Date.now() - last > STALL_SECONDS * 1000) {
        stalled = true;
        console.error(`\nvitest printed nothing for ${STALL_SECONDS} s: stopping the stuck run.`);
        printProgressTail();
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }
    }, 5000);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code: code ?? 1, stalled });
    });
  });
}

/** What the test processes were doing last (tests/setup/progress-log.ts). */
function printProgressTail(): void {
  const log = join(root, 'test-results/vitest-progress.log');
  if (!existsSync(log)) return;
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  console.error(`Last lines of ${log}:\n${lines.slice(-40).join('\n')}`);
}

rmSync(join(root, 'test-results/vitest-progress.log'), { force: true });
const first = await runOnce();
if (!first.stalled) process.exit(first.code);
console.error('Running the tests once more after a stall.');
const second = await runOnce();
process.exit(second.stalled ? 1 : second.code);
