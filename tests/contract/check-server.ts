// The portal as the contract check meets it in the wild, started in this process for the check's
// own tests: a fresh demo server (demo data and the demo's files in flight, as `npm start` makes
// them), listening on a free port, with extra plugins first (a plugin that breaks one promise at
// a time).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppPlugin } from '../../server/app';
import { FolderBlobStore } from '../../server/blob-store';
import { loadConfig } from '../../server/config';
import type { Database } from '../../server/db/database';
import { apiPlugins } from '../../server/routes/index';
import { seedDemoData } from '../../server/seed/demo';
import { makeDemoFiles } from '../../server/seed/demo-files';
import { freePort } from '../helpers/live-server';
import { createTestDb } from '../helpers/test-db';

export interface CheckedServer {
  url: string;
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

export async function startCheckedServer(plugins: AppPlugin[] = []): Promise<CheckedServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-contract-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PIPELINE_THREADS: '1',
  });
  const db = await createTestDb();
  await seedDemoData(db);
  const blobStore = new FolderBlobStore({ root: path.join(dataDir, 'blobs') });
  const app = await buildApp({ config, db, blobStore, plugins: [...plugins, ...apiPlugins()], webRoot: null });
  await app.ready();
  await makeDemoFiles(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    app,
    db,
    async close() {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
