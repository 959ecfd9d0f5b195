// `npm run serve`: the whole product in one process on its defaults (PGlite, folder blobs,
// embedded sign-in, demo data on first start), or on PostgreSQL / an external issuer when
// configured. Prints where it listens and how to sign in.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppPlugin } from './app.js';
import { apiPlugins } from './routes/index.js';
import { sweepTempFilesPeriodically } from './blob-store.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open-database.js';
import { DataDirInUseError } from './db/pglite.js';
import { createLogger } from './logger.js';
import { blobStoreDescription, openBlobStore } from './open-blob-store.js';
import { removeCopiesOfEndedProcesses } from './workflow/local-copy.js';
import { loadReferenceData } from './seed/countries.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoDataSeeded, seedDemoData } from './seed/demo.js';

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** Host names of this machine: a PUBLIC_URL on one of them is not reachable from elsewhere. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface StartOptions {
  config?: Config;
  /** The contract plugin first, then the route plugins (see BuildAppOptions.plugins). */
  plugins?: AppPlugin[];
}

export async function start(options: StartOptions = {}) {
  const config = options.config ?? loadConfig();
  const logger = createLogger(config.logLevel);

  const db = await openDatabase(config, logger);
  const migrations = await migrate(db);
  for (const name of migrations.changed) logger.warn({ migration: name }, 'applied migration file has changed since');
  if (migrations.applied.length > 0) logger.info({ applied: migrations.applied }, 'migrations applied');
  await loadReferenceData(db);
  // A demo installation: asked for (DEMO_DATA=true), or by default the embedded database made
  // by this start (or seeded on such a start before). Never silently a production database.
  const demoMode = config.demoData ?? (db.kind === 'pglite' && (migrations.fresh || (await demoDataSeeded(db))));
  const demo = demoMode ? await seedDemoData(db) : { seeded: false };
  if (demo.seeded) logger.info('demo data created');

  const blobStore = await openBlobStore(config);
  await blobStore.removeStaleTempFiles();
  // Copies of stored scans a killed process left in this machine's temporary space.
  await removeCopiesOfEndedProcesses();
  const stopTempSweep = sweepTempFilesPeriodically(blobStore, (error) => logger.warn({ err: error }, 'temporary files sweep failed'));

  const app = await buildApp({ config, db, blobStore, plugins: options.plugins ?? [] });
  if (demoMode && config.demoFiles) await makeDemoFilesOnce(app);
  await app.listen({ port: config.port, host: config.host });

  const lines = [`Bible Study Portal is running at ${config.publicUrl}`];
  lines.push(`  database: ${db.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL'}`);
  lines.push(`  files:    ${blobStoreDescription(config)}`);
  lines.push(`  sign-in:  ${config.oidc ? config.oidc.issuer : `embedded provider at ${config.publicUrl}/oidc`}`);
  const present = await db.query<{ email: string }>(
    'SELECT email FROM users WHERE email = ANY($1::text[]) AND password_hash IS NOT NULL ORDER BY email',
    [DEMO_ACCOUNTS.map((account) => account.email)],
  );
  // Accounts with a published password, reachable from elsewhere than this machine.
  if (config.oidc === undefined && present.length > 0 && !LOCAL_HOSTS.has(new URL(config.publicUrl).hostname)) {
    logger.warn(
      { accounts: present.map((row) => row.email), publicUrl: config.publicUrl },
      `demo accounts with the password "${DEMO_PASSWORD}" can sign in at ${config.publicUrl}: remove them (npm run users -- remove EMAIL) or keep the portal local`,
    );
  }
  if (config.oidc === undefined && demoMode) {
    if (present.length > 0) {
      lines.push(`  demo accounts (password "${DEMO_PASSWORD}"):`);
      for (const account of DEMO_ACCOUNTS) {
        if (present.some((row) => row.email === account.email)) lines.push(`    ${account.email.padEnd(24)} ${account.role}`);
      }
    }
  }
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      stopTempSweep();
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  return { app, db, config };
}

/**
 * The demo's files in flight, made once before the server listens (a few seconds), so the first
 * sign-in finds them; its code is only loaded when there is something to make.
 */
async function makeDemoFilesOnce(app: FastifyInstance): Promise<void> {
  const { demoFilesWanted } = await import('./seed/demo-files-wanted.js');
  if (!(await demoFilesWanted(app.db))) return;
  const started = Date.now();
  // Its hundreds of API calls would each log two lines: only warnings and errors while it works.
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    const { makeDemoFiles } = await import('./seed/demo-files.js');
    const made = await makeDemoFiles(app);
    app.log.level = level;
    if (made) app.log.info({ ms: Date.now() - started }, 'demo files made');
  } catch (error) {
    app.log.level = level;
    // The product works without them: say so and start.
    app.log.error({ err: error }, 'demo files could not be made');
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    await start({ plugins: apiPlugins() });
  } catch (error) {
    // Configuration and "database in use" problems are the user's to fix: no stack trace.
    if (error instanceof ConfigError || error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  }
}
