// A fresh, migrated database per call: PGlite in memory by default, or a private schema on
// the PostgreSQL server of DATABASE_URL (so test files can run in parallel on one server).
// close() closes it and, on PostgreSQL, drops the schema.
// A new PGlite database costs an initdb (some 2 s of CPU and 800 MB of WASM memory), so the
// first one is dumped once migrated, under tests/fixtures/generated keyed by PGlite's version and
// the migrations, and later ones start from that image. migrate() still runs on each.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '../../server/db/database.js';
import { migrate, readMigrations } from '../../server/db/migrate.js';
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
  const db = databaseUrl === undefined ? await openMigratedPglite() : await openPostgresSchema(databaseUrl);
  try {
    await migrate(db);
    if (options.referenceData !== false) await loadReferenceData(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

const IMAGE_DIR = path.join(import.meta.dirname, '../fixtures/generated');
let image: Blob | undefined;

/** Where the migrated image of the current migrations and PGlite version is kept. */
export function pgliteImagePath(): string {
  const version = readFileSync(path.join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8');
  const key = createHash('sha256')
    .update(JSON.stringify([version, readMigrations().map((migration) => [migration.name, migration.checksum])]))
    .digest('hex')
    .slice(0, 16);
  return path.join(IMAGE_DIR, `pglite-migrated-${key}.tar`);
}

/** Makes the image unless it is there (tests/setup/pglite-image.ts runs this once per run). */
export async function makePgliteImage(file = pgliteImagePath()): Promise<Blob> {
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const db = await openPglite();
  try {
    await migrate(db);
    const made = await db.pglite.dumpDataDir('none');
    // Written beside and renamed: test files starting at once never read half an image.
    mkdirSync(IMAGE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, new Uint8Array(await made.arrayBuffer()));
    renameSync(partial, file);
    return made;
  } finally {
    await db.close();
  }
}

async function openMigratedPglite(): Promise<Database> {
  image ??= await makePgliteImage();
  return openPglite({ loadDataDir: image });
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
