// Writes each test's start and end, and every 15 s what the test process is waiting on, to
// test-results/vitest-progress.log. vitest reports a file only when all of it is done, so when a
// run goes silent (scripts/vitest-watchdog.ts) this log is what says which test was stuck and on
// what kind of handle (a worker's MessagePort, a timer, a socket...).
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';

const dir = join(import.meta.dirname, '../../test-results');
mkdirSync(dir, { recursive: true });
const LOG = join(dir, 'vitest-progress.log');
const log = (line: string) => appendFileSync(LOG, `${new Date().toISOString()} [${process.pid}] ${line}\n`);

let current = 'loading';
beforeAll(() => {
  current = `file ${expect.getState().testPath ?? '?'}`;
  log(`start ${current}`);
});
beforeEach((context) => {
  current = `${context.task.file?.name ?? '?'} :: ${context.task.name}`;
  log(`test ${current}`);
});
afterEach((context) => log(`  ${context.task.result?.state ?? 'done'}`));
setInterval(() => log(`waiting in ${current} on ${JSON.stringify(process.getActiveResourcesInfo())}`), 15_000).unref();
