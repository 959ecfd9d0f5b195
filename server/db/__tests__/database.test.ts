// The Database interface on both implementations: PGlite always, PostgreSQL too when
// DATABASE_URL is set (CI: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowCountError, SQLSTATE, isUniqueViolation, sqlState, type Database } from '../database.js';
import { createTestDb } from '../../../tests/helpers/test-db.js';

const kinds: { name: string; databaseUrl: string | null }[] = [{ name: 'pglite', databaseUrl: null }];
if (process.env.DATABASE_URL) kinds.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(kinds)('Database on $name', ({ name, databaseUrl }) => {
  let db: Database;

  beforeAll(async () => {
    db = await createTestDb({ databaseUrl, referenceData: false });
    await db.exec(`
      CREATE TABLE probe (id serial PRIMARY KEY, label text UNIQUE, n bigint, data jsonb);
      CREATE TABLE counter (id int PRIMARY KEY, value int NOT NULL);
      INSERT INTO counter VALUES (1, 0);`);
  }, 30_000);

  afterAll(async () => {
    await db?.close();
  });

  it('reports its kind', () => {
    expect(db.kind).toBe(name);
  });

  it('gives the same JavaScript values on both drivers', async () => {
    const row = await db.one<Record<string, unknown>>(
      `SELECT 9007199254740991::bigint AS big, count(*) AS total, 1.25::numeric AS price,
              '2024-02-29'::date AS day, '2024-01-02T03:04:05Z'::timestamptz AS at,
              '{"a": [1, "x"]}'::jsonb AS doc, '5f1c1e0e-8a3b-4c3e-9d5f-0a1b2c3d4e5f'::uuid AS id,
              ARRAY['a', 'b']::text[] AS tags, ARRAY[1, 2]::bigint[] AS nums, true AS yes, NULL::text AS nothing
       FROM probe`,
    );
    expect(row).toEqual({
      big: 9007199254740991,
      total: 0,
      price: '1.25',
      day: '2024-02-29',
      at: new Date('2024-01-02T03:04:05Z'),
      doc: { a: [1, 'x'] },
      id: '5f1c1e0e-8a3b-4c3e-9d5f-0a1b2c3d4e5f',
      tags: ['a', 'b'],
      nums: [1, 2],
      yes: true,
      nothing: null,
    });
  });

  it('takes $n parameters of every common type', async () => {
    const when = new Date('2023-05-06T07:08:09.123Z');
    const row = await db.one<{ doc: unknown; at: Date; tags: string[]; n: number }>(
      'SELECT $1::jsonb AS doc, $2::timestamptz AS at, $3::text[] AS tags, $4::bigint AS n',
      [{ name: 'Ama', has_bible: 'yes' }, when, ['x', 'y'], 42],
    );
    expect(row).toEqual({ doc: { name: 'Ama', has_bible: 'yes' }, at: when, tags: ['x', 'y'], n: 42 });
  });

  it('one() wants exactly one row and maybeOne() at most one', async () => {
    await db.execute('DELETE FROM probe');
    await expect(db.one('SELECT * FROM probe')).rejects.toBeInstanceOf(RowCountError);
    expect(await db.maybeOne('SELECT * FROM probe')).toBeNull();
    await db.query(`INSERT INTO probe (label) VALUES ('a'), ('b')`);
    await expect(db.maybeOne('SELECT * FROM probe')).rejects.toThrow('Expected at most one row, got 2');
    expect(await db.one<{ label: string }>('SELECT label FROM probe WHERE label = $1', ['a'])).toEqual({ label: 'a' });
  });

  it('execute() counts the rows touched', async () => {
    await db.execute('DELETE FROM probe');
    expect(await db.execute(`INSERT INTO probe (label) VALUES ('a'), ('b'), ('c')`)).toBe(3);
    expect(await db.execute(`UPDATE probe SET n = 1 WHERE label <> 'a'`)).toBe(2);
    expect(await db.execute('DELETE FROM probe')).toBe(3);
  });

  it('exposes the SQLSTATE of failures', async () => {
    await db.execute('DELETE FROM probe');
    await db.query(`INSERT INTO probe (label) VALUES ('dup')`);
    const error = await db.query(`INSERT INTO probe (label) VALUES ('dup')`).catch((e: unknown) => e);
    expect(sqlState(error)).toBe(SQLSTATE.uniqueViolation);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'probe_label_key')).toBe(true);
    const invalid = await db.query('SELECT $1::uuid', ['not-a-uuid']).catch((e: unknown) => e);
    expect(sqlState(invalid)).toBe(SQLSTATE.invalidTextRepresentation);
  });

  it('commits a transaction and rolls it back when the function throws', async () => {
    await db.execute('DELETE FROM probe');
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO probe (label) VALUES ('kept')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO probe (label) VALUES ('dropped')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const labels = await db.query<{ label: string }>('SELECT label FROM probe ORDER BY label');
    expect(labels).toEqual([{ label: 'kept' }]);
  });

  it('turns nested transactions into savepoints', async () => {
    await db.execute('DELETE FROM probe');
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO probe (label) VALUES ('outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO probe (label) VALUES ('inner')`);
          await inner.query(`INSERT INTO probe (label) VALUES ('outer')`); // unique violation
        }),
      ).rejects.toSatisfy((error: unknown) => isUniqueViolation(error));
      // The outer transaction is still usable after the savepoint rolled back.
      await tx.query(`INSERT INTO probe (label) VALUES ('after')`);
    });
    const labels = await db.query<{ label: string }>('SELECT label FROM probe ORDER BY label');
    expect(labels.map((row) => row.label)).toEqual(['after', 'outer']);
  });

  it('never shows a transaction in progress to concurrent queries', async () => {
    await db.execute('DELETE FROM probe');
    let inserted!: () => void;
    const afterInsert = new Promise<void>((resolve) => (inserted = resolve));
    // Handed over in an object: a promise resolved with a promise would wait for it.
    let asked!: (read: { seen: Promise<unknown[]> }) => void;
    const read = new Promise<{ seen: Promise<unknown[]> }>((resolve) => (asked = resolve));
    const slow = db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO probe (label) VALUES ('uncommitted')`);
        inserted();
        // PostgreSQL answers the read on another connection while this one is open; PGlite's one
        // connection queues it behind this transaction, so there it is only asked for.
        const { seen } = await read;
        if (db.kind === 'postgres') await seen;
        throw new Error('rolled back');
      })
      .catch(() => 'rolled back');
    await afterInsert;
    const seen = db.query('SELECT * FROM probe');
    asked({ seen });
    expect(await seen).toEqual([]);
    expect(await slow).toBe('rolled back');
  });

  it('keeps concurrent read-modify-write transactions apart', async () => {
    await db.execute('UPDATE counter SET value = 0');
    await Promise.all(
      Array.from({ length: 5 }, () =>
        db.transaction(async (tx) => {
          // FOR UPDATE serialises on PostgreSQL; on PGlite the single connection's queue does.
          const { value } = await tx.one<{ value: number }>('SELECT value FROM counter WHERE id = 1 FOR UPDATE');
          await sleep(10);
          await tx.query('UPDATE counter SET value = $1 WHERE id = 1', [value + 1]);
        }),
      ),
    );
    expect(await db.one('SELECT value FROM counter WHERE id = 1')).toEqual({ value: 5 });
  });

  it('refuses close() on a transaction handle', async () => {
    await db.transaction(async (tx) => {
      await expect(tx.close()).rejects.toThrow('transaction handle');
    });
  });
});
