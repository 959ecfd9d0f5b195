// Migrations: applied once, in order, safe to rerun and safe to run from several processes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import { migrate, readMigrations } from '../migrate.js';
import { openPglite } from '../pglite.js';
import { openPostgres } from '../postgres.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';

const kinds: { name: string; databaseUrl: string | null }[] = [{ name: 'pglite', databaseUrl: null }];
if (process.env.DATABASE_URL) kinds.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });

describe('readMigrations', () => {
  it('lists numbered SQL files in order with checksums', () => {
    const migrations = readMigrations();
    expect(migrations[0]?.name).toBe('001_initial.sql');
    expect(migrations[0]?.version).toBe('001_initial');
    const names = migrations.map((migration) => migration.name);
    expect(names).toEqual([...names].sort());
    for (const migration of migrations) expect(migration.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('applies files in name order, two with the same number included, and skips other files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    await writeFile(path.join(dir, '002_b.sql'), `INSERT INTO log VALUES ('002_b');`);
    await writeFile(path.join(dir, '001_setup.sql'), 'CREATE TABLE log (name text);');
    await writeFile(path.join(dir, '002_a.sql'), `INSERT INTO log VALUES ('002_a');`);
    await writeFile(path.join(dir, 'notes.txt'), 'not a migration');
    const db = await openPglite();
    try {
      expect((await migrate(db, readMigrations(dir))).applied).toEqual(['001_setup.sql', '002_a.sql', '002_b.sql']);
      expect(await db.query('SELECT name FROM log')).toEqual([{ name: '002_a' }, { name: '002_b' }]);
      const twice = [...readMigrations(dir), ...readMigrations(dir)];
      await expect(migrate(db, twice)).rejects.toThrow('Migration 001_setup is listed twice');
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.each(kinds)('migrate on $name', ({ databaseUrl }) => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDb({ databaseUrl, referenceData: false });
  }, 30_000);

  afterAll(async () => {
    await db?.close();
  });

  it('is idempotent: a second run applies nothing', async () => {
    const before = await db.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(before.length).toBe(readMigrations().length);
    expect(await migrate(db)).toEqual({ applied: [], changed: [], fresh: false });
    expect(await db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(before);
  });

  it('notices an applied migration whose file changed', async () => {
    const migrations = readMigrations().map((migration, index) =>
      index === 0 ? { ...migration, checksum: 'f'.repeat(64) } : migration,
    );
    expect((await migrate(db, migrations)).changed).toEqual(['001_initial.sql']);
  });

  it('applies a new migration once and rolls back a failing one completely', async () => {
    const base = readMigrations();
    const extra = { version: '900_probe', name: '900_probe.sql', sql: 'CREATE TABLE probe_900 (id int);', checksum: 'a'.repeat(64) };
    expect((await migrate(db, [...base, extra])).applied).toEqual(['900_probe.sql']);
    expect((await migrate(db, [...base, extra])).applied).toEqual([]);

    const broken = {
      version: '901_broken',
      name: '901_broken.sql',
      sql: 'CREATE TABLE probe_901 (id int); SELECT no_such_function();',
      checksum: 'b'.repeat(64),
    };
    await expect(migrate(db, [...base, extra, broken])).rejects.toThrow();
    expect(await db.query(`SELECT to_regclass('probe_901') AS t`)).toEqual([{ t: null }]);
    expect(await db.query(`SELECT version FROM schema_migrations WHERE version = '901_broken'`)).toEqual([]);
  });

  it('creates the schema the server relies on', async () => {
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
    );
    expect(tables.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        'users', 'sessions', 'login_states', 'countries', 'courses', 'lessons', 'page_templates', 'service_centers',
        'recruiting_points', 'recruiters', 'contact_persons', 'congregations', 'study_helpers', 'students', 'files',
        'file_congregations', 'answer_sheets', 'pages', 'printed_codes', 'graded_uploads', 'feedback',
        'packets', 'baptism_requests', 'job_progress', 'app_settings', 'schema_migrations',
      ]),
    );
  });

  it('enforces the WBS code rule, lower-case e-mails and enum values', async () => {
    const insertWbs = (code: string) =>
      db.query('INSERT INTO congregations (wbs_code, display_name) VALUES ($1, $2)', [code, code]).then(
        () => 'ok',
        () => 'refused',
      );
    expect(await insertWbs('US 1234')).toBe('ok');
    expect(await insertWbs('US 12')).toBe('refused'); // not longer than 5 characters
    expect(await insertWbs('US 123')).toBe('ok');
    expect(await insertWbs('U S1234')).toBe('refused'); // space in the first two positions
    expect(await insertWbs(' US1234')).toBe('refused');
    expect(await insertWbs('US 12 34')).toBe('refused'); // two spaces
    expect(await insertWbs('US1234')).toBe('refused'); // no space
    expect(await insertWbs('ABC 1')).toBe('refused'); // length 5
    expect(await insertWbs('ABC 12')).toBe('ok');

    await expect(db.query(`INSERT INTO users (email) VALUES ('Someone@Example.org')`)).rejects.toThrow();
    await expect(db.query(`INSERT INTO users (email, role) VALUES ('x@example.org', 'superuser')`)).rejects.toThrow();
    await expect(
      db.query(`INSERT INTO files (name, sha256, blob_key, size_bytes, process_status) VALUES ('f', $1, $1, 1, 'done')`, [
        'a'.repeat(64),
      ]),
    ).rejects.toThrow();
  });

  it('numbers students with human_id from a sequence', async () => {
    const rows = await db.query<{ human_id: number }>(
      `INSERT INTO students (attributes) VALUES ('{"name": "A"}'), ('{"name": "B"}') RETURNING human_id`,
    );
    const [first, second] = rows.map((row) => row.human_id);
    expect(typeof first).toBe('number');
    expect(second).toBe((first as number) + 1);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('migrate from several processes at once (PostgreSQL)', () => {
  it('applies every migration exactly once', async () => {
    const url = process.env.DATABASE_URL as string;
    const schema = `test_concurrent_${Date.now().toString(36)}`;
    const admin = await openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    // Separate pools stand in for separate server processes.
    const pools = await Promise.all([1, 2, 3, 4].map(() => openPostgres({ connectionString: url, schema, max: 2 })));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      const applied = results.flatMap((result) => result.applied);
      expect(applied.sort()).toEqual(readMigrations().map((migration) => migration.name));
      const rows = await pools[0]?.query('SELECT version FROM schema_migrations');
      expect(rows?.length).toBe(readMigrations().length);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  }, 30_000);
});
