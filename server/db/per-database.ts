// What a process remembers per open database (short-lived caches): one value per Database, made
// on first use and dropped with the Database object.
import type { Database } from './database.js';

/** Returns the value for a database, made by `make` the first time it is asked for. */
export function perDatabase<T extends object>(make: () => T): (db: Database) => T {
  const values = new WeakMap<Database, T>();
  return (db) => {
    let value = values.get(db);
    if (value === undefined) {
      value = make();
      values.set(db, value);
    }
    return value;
  };
}
