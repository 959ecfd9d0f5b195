// PostgreSQL through a node-postgres Pool behind the Database interface: the scale setup,
// where several server and worker processes share one database.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { pickMaybeOne, pickOne, type Database } from './database.js';

export interface PostgresOptions {
  connectionString: string;
  /** Every connection uses this schema first (tests isolate themselves per schema). */
  schema?: string;
  max?: number;
  /** Called when an idle connection fails (e.g. the server restarted); the pool replaces it. */
  onIdleError?: (error: Error) => void;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
const DATE = 1082;

// pg-types is typed for its TypeId enum only; any OID is valid at run time.
const builtinParser = pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (value: string) => unknown;

/** Same JS values as the PGlite implementation (see database.ts). */
export const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === INT8_ARRAY) {
      const parseArray = builtinParser(INT8_ARRAY, 'text') as (value: string) => (string | null)[];
      return (value: string) => parseArray(value).map((item) => (item === null ? null : Number(item)));
    }
    if (oid === DATE) return (value: string) => value;
    return builtinParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export async function openPostgres(options: PostgresOptions): Promise<Database & { pool: pg.Pool }> {
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
    throw new Error(`Invalid schema name "${options.schema}"`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: typeParsers,
    options: options.schema === undefined ? undefined : `-c search_path=${options.schema},public`,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  const db = new PostgresDatabase(pool, true, 0);
  // Fail at start, not on the first request, when the server is unreachable.
  await db.query('SELECT 1');
  return Object.assign(db, { pool });
}

type Runner = pg.Pool | pg.PoolClient;

const statementNames = new Map<string, string>();

/**
 * Every statement is prepared once per connection under a name made from its text: planning a
 * list query with its joins costs more than running it (about 1 ms against 0.5 ms for a page of
 * students), and the same few statements run again and again.
 */
export function statement(sql: string, params: readonly unknown[]): pg.QueryConfig {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    // Statements built from user input would each be a new name: keep the map bounded.
    if (statementNames.size >= 5000) statementNames.clear();
    statementNames.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[] };
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly runner: Runner,
    private readonly isPool: boolean,
    private readonly depth: number,
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.runner.query(statement(sql, params));
    return result.rows as T[];
  }

  async one<T>(sql: string, params?: readonly unknown[]): Promise<T> {
    return pickOne(await this.query<T>(sql, params));
  }

  async maybeOne<T>(sql: string, params?: readonly unknown[]): Promise<T | null> {
    return pickMaybeOne(await this.query<T>(sql, params));
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    const result = await this.runner.query(statement(sql, params));
    return result.rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    // Without parameters node-postgres uses the simple protocol, which accepts several statements.
    await this.runner.query(sql);
  }

  async transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T> {
    if (this.isPool) {
      const client = await (this.runner as pg.Pool).connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(new PostgresDatabase(client, false, 1));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection itself is gone: drop it from the pool instead of reusing it.
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    }
    const savepoint = `sp_${this.depth}`;
    await this.runner.query(`SAVEPOINT ${savepoint}`);
    try {
      const result = await fn(new PostgresDatabase(this.runner, false, this.depth + 1));
      await this.runner.query(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      await this.runner.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (!this.isPool) throw new Error('close() called on a transaction handle');
    const pool = this.runner as pg.Pool;
    if (!pool.ended) await pool.end();
  }
}
