// Picks the database implementation from the configuration: PostgreSQL when DATABASE_URL
// is set, else PGlite in DATA_DIR/pglite.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Database } from './database.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, logger?: Logger): Promise<Database> {
  if (config.databaseUrl !== undefined) {
    return openPostgres({
      connectionString: config.databaseUrl,
      onIdleError: (error) => logger?.warn({ err: error }, 'idle database connection failed'),
    });
  }
  return openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
}
