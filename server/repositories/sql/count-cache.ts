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

interface Totals {
  cache: ExpiringCache<number>;
  /** Counts being run, by key: requests that miss together share one. */
  counting: Map<string, Promise<number>>;
  /** Goes up with every write, so a count that started before it is not kept. */
  generation: number;
}

const totalsOf = perDatabase<Totals>(() => ({ cache: new ExpiringCache<number>(MAX_ENTRIES), counting: new Map(), generation: 0 }));

/**
 * `SELECT count(*) AS total ...` through the cache. A total expires for every caller at once:
 * those asking for it meanwhile wait for one count rather than each running their own (20
 * clients paging through 100k students ran it 25 times in 3 s, 5-8 ms each).
 */
export function cachedTotal(db: Database, sql: string, params: readonly unknown[]): Promise<number> {
  const totals = totalsOf(db);
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const now = Date.now();
  const hit = totals.cache.get(key, now);
  if (hit !== undefined) return Promise.resolve(hit);
  const running = totals.counting.get(key);
  if (running !== undefined) return running;
  const generation = totals.generation;
  const counting = db
    .one<{ total: number }>(sql, [...params])
    .then(({ total }) => {
      // A write meanwhile may not be in it: answer with it, but do not keep it.
      if (totals.generation === generation) totals.cache.set(key, total, now + COUNT_CACHE_TTL_MS);
      return total;
    })
    .finally(() => {
      if (totals.counting.get(key) === counting) totals.counting.delete(key);
    });
  totals.counting.set(key, counting);
  return counting;
}

/** Forget every cached total of this database (after a write), and every count under way. */
export function invalidateTotals(db: Database): void {
  const totals = totalsOf(db);
  totals.generation++;
  totals.cache.clear();
  totals.counting.clear();
}
