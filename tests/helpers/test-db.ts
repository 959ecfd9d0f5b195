// A fresh, migrated database per call: PGlite in memory by default, or a private schema on
// the PostgreSQL server of DATABASE_URL (so test files can run in parallel on one server).
// close() closes it and, on PostgreSQL, drops the schema.
import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { openPostgres } from '../../server/db/postgres.js';
import { loadReferenceData } from '../../server/seed/countries.js';

export interface TestDbOptions {
  /** Load the countries (default true). */
  referenceData?: boolean;
  /** Override DATABASE_URL: a postgres:// URL, or null for PGlite whatever the environment says. */
  databaseUrl?: string | null;
}

export async function createTestDb(options: TestDbOptions = {}): Promise<Database> {
  const databaseUrl = options.databaseUrl === undefined ? process.env.DATABASE_URL || undefined : options.databaseUrl ?? undefined;
  const db = databaseUrl === undefined ? await openPglite() : await openPostgresSchema(databaseUrl);
  try {
    await migrate(db);
    if (options.referenceData !== false) await loadReferenceData(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openPostgresSchema(connectionString: string): Promise<Database> {
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres({ connectionString, max: 1 });
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.close();
  }
  const db = await openPostgres({ connectionString, schema, max: 5 });
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      const cleanup = await openPostgres({ connectionString, max: 1 });
      try {
        await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await cleanup.close();
      }
    },
  });
}
