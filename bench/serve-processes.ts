// The portal's processes as `npm run serve` and `npm run worker` start them (package.json), for
// benchmarks that measure them from outside: their environment, start-up, and what the kernel
// says of their memory and CPU time.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, SERVER_BUILD_DIR } from '../server/project-root';

export { freePort, waitForHealth } from '../tests/helpers/live-server';

const MB = 1024 * 1024;

/**
 * What a package.json script gives its node process: the variables set before the command
 * (`A=1 B=2 node ...`) and node's own options (`node --flag ... script`). The bench runs the
 * processes with what `npm run <script>` gives them, from the one place it is written.
 */
export function scriptCommand(script: 'serve' | 'worker'): { env: Record<string, string>; nodeOptions: string[] } {
  const scripts = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = (scripts[script] ?? '').split(/\s+/);
  const env: Record<string, string> = {};
  let at = 0;
  for (; at < words.length; at++) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(words[at]!);
    if (!match) break;
    env[match[1]!] = match[2]!;
  }
  if (words[at] !== 'node') throw new Error(`package.json script "${script}" does not run node`);
  const nodeOptions: string[] = [];
  for (at++; at < words.length && words[at]!.startsWith('-'); at++) nodeOptions.push(words[at]!);
  return { env, nodeOptions };
}

/**
 * Starts build/server/<entry>.mjs (run `npm run build:server` first) as its npm script does.
 * BENCH_NODE_OPTIONS adds node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`.
 */
export function startBuilt(entry: 'main' | 'worker-main', env: NodeJS.ProcessEnv): ChildProcess {
  const command = scriptCommand(entry === 'main' ? 'serve' : 'worker');
  const extraOptions = process.env.BENCH_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...command.nodeOptions, ...extraOptions, path.join(SERVER_BUILD_DIR, `${entry}.mjs`)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...command.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A field of /proc/<pid>/status in bytes (VmRSS: now; VmHWM: the peak so far); 0 once gone. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds the process has used, all threads (utime + stime of /proc/<pid>/stat). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after "(comm) ".
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const toMb = (bytes: number) => Math.round(bytes / MB);

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
