// List totals: kept for a short time, one count for callers that miss together, and nothing kept
// that may predate a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/database';
import { createTestDb } from '../../../../tests/helpers/test-db';
import { cachedTotal, invalidateTotals } from '../count-cache';

describe('cachedTotal', () => {
  let real: Database;
  let db: Database;
  /** Counts run on the database, as the list calls run them. */
  let counted = 0;

  beforeAll(async () => {
    real = await createTestDb({ referenceData: false });
    await real.exec('CREATE TABLE counted_things (id int)');
    db = {
      ...real,
      one: async <T>(sql: string, params?: readonly unknown[]) => {
        counted++;
        return real.one<T>(sql, params);
      },
    } as Database;
  });

  afterAll(async () => {
    await real?.close();
  });

  const total = () => cachedTotal(db, 'SELECT count(*) AS total FROM counted_things WHERE id > $1', [0]);

  it('runs one count for callers that ask at the same time, and keeps it', async () => {
    await real.exec('INSERT INTO counted_things SELECT generate_series(1, 5)');
    counted = 0;
    expect(await Promise.all(Array.from({ length: 20 }, total))).toEqual(Array(20).fill(5));
    expect(await total()).toBe(5);
    expect(counted).toBe(1);
  });

  it('counts again after a write, and does not keep a count that was under way during it', async () => {
    invalidateTotals(db);
    counted = 0;
    const before = total();
    await real.exec('INSERT INTO counted_things VALUES (6)');
    invalidateTotals(db);
    const after = total();
    await before;
    expect(await after).toBe(6);
    expect(await total()).toBe(6);
    expect(counted).toBe(2);
  });
});
