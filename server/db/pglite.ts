// Embedded PostgreSQL (PGlite, WASM) behind the Database interface. PGlite has one
// connection: its own mutex already queues every query behind a running transaction, so
// concurrent requests never interleave inside one; nested transactions become savepoints.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { pickMaybeOne, pickOne, type Database } from './database.js';

export interface PgliteOptions {
  /** Folder for the database files; undefined keeps everything in memory (tests). */
  dataDir?: string;
  /** In memory only: start from this dumpDataDir() image instead of a new database (tests). */
  loadDataDir?: Blob;
}

/** Same JS values as the node-postgres implementation (see database.ts). */
const parsers = {
  [types.INT8]: (value: string) => Number(value),
  [types.DATE]: (value: string) => value,
};

/**
 * PostgreSQL's own page cache inside PGlite's WASM memory, which never shrinks once touched.
 * PostgreSQL's default (128 MB) fills as the tables are read and stays resident; the files are in
 * the operating system's cache anyway. 16 MB keeps an opened database at ~220 MB instead of ~350.
 */
const SHARED_BUFFERS = '16MB';

export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  let releaseLock = () => {};
  if (options.dataDir !== undefined) {
    mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
  }
  let pglite: PGlite;
  try {
    if (options.dataDir !== undefined) await initialiseDataDir(options.dataDir);
    pglite = await PGlite.create(options.dataDir, {
      parsers,
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = new PgliteDatabase(pglite, pglite, 0, releaseLock);
  return Object.assign(db, { pglite });
}

/**
 * Creating a database (initdb) grows PGlite's WASM memory to some 800 MB, and WASM memory never
 * shrinks; opening an existing one takes about 250 MB. So a new data folder is created by a
 * short-lived child process, and this process only ever opens it.
 */
async function initialiseDataDir(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  // Made beside the folder and moved in with PG_VERSION last: a start interrupted half-way
  // leaves no folder that looks complete, and the next start makes it again.
  const staging = `${path.resolve(dataDir)}.new`;
  rmSync(staging, { recursive: true, force: true });
  const pgliteUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pgliteUrl)});
const db = await PGlite.create(${JSON.stringify(staging)});
await db.close();`;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 300_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`Could not create the embedded database in ${dataDir}: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
  for (const entry of readdirSync(dataDir)) {
    if (entry !== LOCK_FILE) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
  for (const entry of readdirSync(staging)) {
    if (entry !== 'PG_VERSION') renameSync(path.join(staging, entry), path.join(dataDir, entry));
  }
  renameSync(path.join(staging, 'PG_VERSION'), path.join(dataDir, 'PG_VERSION'));
  rmSync(staging, { recursive: true, force: true });
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid}. ` +
        'PGlite allows one process at a time: stop the server first, or use PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirInUseError';
  }
}

const LOCK_FILE = 'portal.lock';

/** PGlite files opened by two processes at once get corrupted: refuse the second one. */
const openInThisProcess = new Set<string>();

function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(path.resolve(dataDir), LOCK_FILE);
  if (openInThisProcess.has(lockFile)) throw new DataDirInUseError(dataDir, process.pid);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      openInThisProcess.add(lockFile);
      return () => {
        openInThisProcess.delete(lockFile);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8'));
      // Our own pid here is a lock left by an earlier run (containers reuse pids).
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dataDir, pid);
      // Left behind by a process that died: take it over.
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Runner = Pick<PGlite, 'query' | 'exec'> | Transaction;

class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;

  constructor(
    private readonly runner: Runner,
    private readonly root: PGlite | null,
    private readonly depth = 0,
    private readonly releaseLock: () => void = () => {},
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.runner.query<T>(sql, params as unknown[]);
    return result.rows;
  }

  async one<T>(sql: string, params?: readonly unknown[]): Promise<T> {
    return pickOne(await this.query<T>(sql, params));
  }

  async maybeOne<T>(sql: string, params?: readonly unknown[]): Promise<T | null> {
    return pickMaybeOne(await this.query<T>(sql, params));
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    const result = await this.runner.query(sql, params as unknown[]);
    return result.affectedRows ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await this.runner.exec(sql);
  }

  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    if (this.root !== null) {
      return this.root.transaction((tx) => fn(new PgliteDatabase(tx, null, 1)));
    }
    const savepoint = `sp_${this.depth}`;
    await this.runner.exec(`SAVEPOINT ${savepoint}`);
    try {
      const result = await fn(new PgliteDatabase(this.runner, null, this.depth + 1));
      await this.runner.exec(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      await this.runner.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.root === null) throw new Error('close() called on a transaction handle');
    if (!this.root.closed) await this.root.close();
    this.releaseLock();
  }
}
