// The real app for the pipeline and files tests: every route of apiPlugins with responses checked
// against the contract, the job queue tuned for tests (short leases, quick sweeps, hooks to stop
// a worker mid-file) and a small upload limit when asked. close() also drops the job queue's own
// schema, which lives beside a PostgreSQL test schema.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { buildApp } from '../../server/app';
import type { SweptBlobStore } from '../../server/blob-store';
import { loadConfig, type Config } from '../../server/config';
import type { Database } from '../../server/db/database';
import { createJobsPlugin, jobsPlugin, type JobsPluginOptions } from '../../server/jobs/jobs-plugin';
import { createFilesRoutes, filesRoutes } from '../../server/routes/files';
import { openBlobStore } from '../../server/open-blob-store';
import { apiPlugins } from '../../server/routes/index';
import { TEST_PUBLIC_URL } from '../helpers/test-app';
import { createTestDb } from '../helpers/test-db';

export interface PipelineAppOptions {
  jobs?: JobsPluginOptions;
  maxUploadBytes?: number;
  /** Reuse a database (a "restarted server"); it is then not closed by close(). */
  db?: Database;
  /** Reuse a data folder (blobs) with the database; it is then not removed by close(). */
  dataDir?: string;
  /** Check every JSON response against the contract (default true). */
  validateResponses?: boolean;
  /** Environment variables on top of the test defaults (e.g. SMTP_URL, BLOB_STORE). */
  env?: Record<string, string>;
}

export interface PipelineApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  blobStore: SweptBlobStore;
  close(): Promise<void>;
}

export const TEST_JOB_OPTIONS: JobsPluginOptions = {
  work: true,
  pollingIntervalSeconds: 0.5,
  recoverySweepSeconds: 1,
  leaseSeconds: 2,
  progressPollMs: 100,
};

export async function createPipelineApp(options: PipelineAppOptions = {}): Promise<PipelineApp> {
  const ownDb = options.db === undefined;
  const db = options.db ?? (await createTestDb());
  const plugins = apiPlugins({ validateResponses: options.validateResponses ?? true }).map((plugin) => {
    if (plugin === jobsPlugin) return createJobsPlugin({ ...TEST_JOB_OPTIONS, ...options.jobs });
    if (plugin === filesRoutes) return createFilesRoutes(options.maxUploadBytes === undefined ? {} : { maxUploadBytes: options.maxUploadBytes });
    return plugin;
  });
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'portal-pipeline-')));
  const config = loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    // The benchmarks measure the pipeline with fewer threads through this.
    PIPELINE_THREADS: process.env.PIPELINE_THREADS,
    ...options.env,
  });
  // The folder in DATA_DIR, or object storage when BLOB_STORE is set.
  const blobStore = await openBlobStore(config);
  const app = await buildApp({ config, db, blobStore, plugins, webRoot: null });
  await app.ready();
  return {
    app,
    db,
    config,
    blobStore,
    async close() {
      await app.close();
      if (ownDb) {
        await dropJobSchema(db);
        await db.close();
      }
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The queue's schema is `<schema>_pgboss` beside a test schema (see server/jobs/queue.ts). */
export async function dropJobSchema(db: Database): Promise<void> {
  if (db.kind !== 'postgres') return;
  const { schema } = await db.one<{ schema: string }>('SELECT current_schema() AS schema');
  if (schema !== 'public') await db.exec(`DROP SCHEMA IF EXISTS "${schema}_pgboss" CASCADE`);
}

/**
 * One app per test file for route tests: tables emptied and contract violations checked after
 * each test (like tests/server/support.ts's useRouteTests, with this file's job settings).
 */
export function usePipelineApp(options: PipelineAppOptions = {}): { readonly current: PipelineApp } {
  let current: PipelineApp | undefined;
  const handle = {
    get current(): PipelineApp {
      if (current === undefined) throw new Error('The app starts in beforeAll');
      return current;
    },
  };
  beforeAll(async () => {
    current = await createPipelineApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    handle.current.app.contractViolations.length = 0;
  });
  afterEach(async () => {
    const violations = [...handle.current.app.contractViolations];
    const tables = await handle.current.db.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('schema_migrations', 'countries')`,
    );
    await handle.current.db.exec(`TRUNCATE ${tables.map((table) => `"${table.name}"`).join(', ')} CASCADE`);
    expect(violations).toEqual([]);
  });
  return handle;
}
