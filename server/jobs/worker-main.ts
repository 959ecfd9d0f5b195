// A job worker on its own, without the HTTP server: `npx tsx server/jobs/worker-main.ts`.
// For the scale setup on PostgreSQL (DATABASE_URL): run as many as the machine has cores to
// spare, next to servers started with JOB_WORKER=off. Workers claim jobs in the database, and
// share the servers' stored files: object storage (BLOB_STORE=s3://…), or DATA_DIR on a shared disk.
// PGlite allows one process, so there the server runs jobs itself and this refuses to start.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open-database';
import { createLogger } from '../logger';
import { openBlobStore } from '../open-blob-store';
import { removeCopiesOfEndedProcesses } from '../workflow/local-copy';
import { jobDefinitions } from './definitions';
import { JobQueue } from './queue';

const SHUTDOWN_TIMEOUT_MS = 30_000;

export async function startWorker(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  if (config.databaseUrl === undefined) {
    throw new ConfigError(['DATABASE_URL is required: with the embedded database the server runs jobs itself']);
  }
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, logger);
  await migrate(db);
  const blobStore = await openBlobStore(config);
  // Copies of stored scans a killed worker left in this machine's temporary space.
  await removeCopiesOfEndedProcesses();
  const queue = new JobQueue({ db, blobStore, config, logger, definitions: jobDefinitions, autoWork: true });
  await queue.start();
  logger.info({ worker: queue.workerId, jobs: jobDefinitions.map((definition) => definition.name) }, 'job worker started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'job worker stopping');
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      // Jobs in progress finish; files keep their stored pages either way.
      await queue.stop();
      await db.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'job worker shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return { queue, db };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    await startWorker();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  }
}
