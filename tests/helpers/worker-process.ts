// A job worker process (server/jobs/worker-main.ts) on the test's PostgreSQL schema, as a
// machine of its own would run it: its own DATA_DIR, no demo data.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface WorkerProcessOptions {
  databaseUrl: string;
  /** The test database's schema (test:pg gives each test database its own). */
  schema: string;
  dataDir: string;
  /** More environment (object storage, TMPDIR...). */
  env?: Record<string, string>;
  logLevel?: 'info' | 'warn';
  /** 'pipe' to read the worker's log lines (its id, what it started). */
  stdout?: 'inherit' | 'pipe';
}

export function spawnWorker(options: WorkerProcessOptions): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/jobs/worker-main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      PGOPTIONS: `-c search_path=${options.schema},public`,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: options.logLevel ?? 'warn',
      DEMO_DATA: 'false',
    },
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit'],
  });
}
