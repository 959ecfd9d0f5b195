// pg-boss runs its own SQL (its schema, its queue operations) through this adapter, on the same
// connection(s) as everything else: PGlite has one, and PostgreSQL's pool is shared.
import type PgBoss from 'pg-boss';
import type { Database } from './database';

/** pg-boss's database adapter over our Database interface. */
export function pgBossAdapter(db: Database): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const parameterless = values === undefined || values.length === 0;
      // pg-boss's scripts (migrations, locked maintenance) are "BEGIN; ...; COMMIT;".
      if (parameterless && /^\s*BEGIN\s*;/i.test(text)) {
        await db.exec(text);
        return { rows: [] };
      }
      try {
        return { rows: await db.query(text, values ?? []) };
      } catch (error) {
        // Any other multi-statement text is refused by the extended protocol: run it as a script.
        if (parameterless && isMultipleCommandsError(error)) {
          await db.exec(text);
          return { rows: [] };
        }
        throw error;
      }
    },
  };
}

function isMultipleCommandsError(error: unknown): boolean {
  return error instanceof Error && /multiple commands/i.test(error.message);
}
