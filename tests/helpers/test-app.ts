// The real app on a fresh test database and a temporary blob folder, for app.inject tests.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppPlugin, type BuildAppOptions } from '../../server/app.js';
import { FolderBlobStore } from '../../server/blob-store.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Database } from '../../server/db/database.js';
import { PARTS_FOLDER } from '../../server/workflow/resumable-parts.js';
import { createTestDb } from './test-db.js';

export const TEST_PUBLIC_URL = 'http://localhost:3000';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  blobStore: FolderBlobStore;
  config: Config;
  /** Closes the app, the database (dropping its schema on PostgreSQL) and removes the data folder. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (PUBLIC_URL, LOG_LEVEL=silent, DATA_DIR=tmp). */
  env?: Record<string, string>;
  plugins?: AppPlugin[];
  /** Reuse a database (it is then not closed by close()). */
  db?: Database;
  webRoot?: string | null;
  oidcClient?: BuildAppOptions['oidcClient'];
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-test-'));
  const config = loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    ...options.env,
  });
  const ownDb = options.db === undefined;
  const db = options.db ?? (await createTestDb());
  const blobStore = new FolderBlobStore({ root: path.join(dataDir, 'blobs') });
  const app = await buildApp({
    config,
    db,
    blobStore,
    plugins: options.plugins,
    webRoot: options.webRoot === undefined ? null : options.webRoot,
    oidcClient: options.oidcClient,
  });
  await app.ready();
  return {
    app,
    db,
    blobStore,
    config,
    async close() {
      await app.close();
      if (ownDb) await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What is left in the blob store's temporary area, leaving out the resumable uploads' parts
 * folder, which lives there on purpose (its own tests look inside it).
 */
export async function temporaryFilesLeft(test: Pick<TestApp, 'blobStore' | 'config'>): Promise<string[]> {
  const names = await readdir(path.join(test.config.dataDir, 'blobs', 'tmp')).catch(() => []);
  return names.filter((name) => name !== PARTS_FOLDER);
}
