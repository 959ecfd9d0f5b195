// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { migrate } from './migrate.js';
import { openDatabase } from './open-database.js';
import { DataDirInUseError } from './pglite.js';

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, logger);
  try {
    const result = await migrate(db);
    for (const name of result.changed) logger.warn({ migration: name }, 'applied migration file has changed since');
    logger.info(
      { applied: result.applied, database: db.kind },
      result.applied.length > 0 ? 'migrations applied' : 'database is up to date',
    );
  } finally {
    await db.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
