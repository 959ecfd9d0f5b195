// Applies server/db/migrations/NNN_name.sql in file-name order, once each, recording them in
// schema_migrations by file name (two people adding a 003_* at the same time both apply). All pending files run in one transaction under an advisory lock, so
// several processes starting at once on PostgreSQL apply each migration exactly once.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';
import type { Database } from './database.js';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'server', 'db', 'migrations');

const MIGRATION_FILE = /^(\d{3,})_[\w-]+\.sql$/;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  /** The database had no migration before: this start made it (an installation's first start). */
  fresh: boolean;
  /** Already applied migrations whose file changed since (edited history: worth a warning). */
  changed: string[];
}

export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name), 'utf8');
      return {
        version: name.slice(0, -'.sql'.length),
        name,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

export async function migrate(db: Database, migrations: Migration[] = readMigrations()): Promise<MigrateResult> {
  const versions = new Set<string>();
  for (const migration of migrations) {
    if (versions.has(migration.version)) throw new Error(`Migration ${migration.version} is listed twice`);
    versions.add(migration.version);
  }

  return db.transaction(async (tx) => {
    // The lock key includes the schema so isolated test schemas migrate in parallel.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('bible-study-portal:migrate:' || current_schema()))`);
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version    text PRIMARY KEY,
        name       text NOT NULL,
        checksum   text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const done = new Map(
      (await tx.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations')).map(
        (row) => [row.version, row.checksum],
      ),
    );
    const result: MigrateResult = { applied: [], changed: [], fresh: done.size === 0 };
    for (const migration of migrations) {
      const checksum = done.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) result.changed.push(migration.name);
        continue;
      }
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      result.applied.push(migration.name);
    }
    return result;
  });
}
