// List totals are the costliest part of a paged list (a count over every matching row), and
// the same totals are asked for again and again while people page through a list. They are
// cached for a short time per database, and the whole cache is dropped whenever anything is
// written through this server process (any mutating API call, any job step). Another server
// process's writes show within COUNT_CACHE_TTL_MS, the same window in which the web client
// already merges duplicate requests (spec section 9: 2 s).
import type { Database } from '../../db/database';
import { ExpiringCache } from '../../db/expiring-cache';
import { perDatabase } from '../../db/per-database';

export const COUNT_CACHE_TTL_MS = 2000;
const MAX_ENTRIES = 2000;

const cacheOf = perDatabase(() => new ExpiringCache<number>(MAX_ENTRIES));

/** `SELECT count(*) AS total ...` through the cache. */
export async function cachedTotal(db: Database, sql: string, params: readonly unknown[]): Promise<number> {
  const cache = cacheOf(db);
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const now = Date.now();
  const hit = cache.get(key, now);
  if (hit !== undefined) return hit;
  const { total } = await db.one<{ total: number }>(sql, [...params]);
  cache.set(key, total, now + COUNT_CACHE_TTL_MS);
  return total;
}

/** Forget every cached total of this database (after a write). */
export function invalidateTotals(db: Database): void {
  cacheOf(db).clear();
}
