// The one database interface every part of the server uses. Two implementations run the
// same SQL ($1, $2 ... parameters): PGlite (embedded, default) and node-postgres (scale).
// Results are normalised so both give the same JavaScript values: int8/bigint and count(*)
// as number, numeric as string, timestamptz as Date, json/jsonb parsed, uuid as string.

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  readonly kind: DatabaseKind;
  /** Runs one statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Exactly one row, else throws (a query that must find its row; use maybeOne for lookups). */
  one<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T>;
  /** Zero or one row; more than one throws. */
  maybeOne<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | null>;
  /** Runs one statement and returns the number of rows it touched (UPDATE/DELETE/INSERT). */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs several parameterless statements separated by semicolons (migrations, pg-boss). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn in a transaction: committed when fn resolves, rolled back when it throws.
   * Use only `tx` inside fn. Nested calls on `tx` become savepoints.
   */
  transaction<T>(fn: (tx: Database) => Promise<T>): Promise<T>;
  /** Closes the connection(s); in a transaction handle it throws. */
  close(): Promise<void>;
}

/** Thrown by one()/maybeOne() when the row count is not what the caller asked for. */
export class RowCountError extends Error {
  constructor(
    public readonly expected: 'one' | 'at most one',
    public readonly actual: number,
  ) {
    super(`Expected ${expected} row, got ${actual}`);
    this.name = 'RowCountError';
  }
}

/** PostgreSQL SQLSTATE codes the server reacts to. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
  invalidTextRepresentation: '22P02',
  invalidDatetimeFormat: '22007',
  datetimeFieldOverflow: '22008',
  // Input PostgreSQL cannot take: numbers out of range, NUL or unencodable text, too long.
  numericValueOutOfRange: '22003',
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
  stringDataRightTruncation: '22001',
} as const;

/** The SQLSTATE of a database error from either driver, or undefined for other errors. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== SQLSTATE.uniqueViolation) return false;
  return constraint === undefined || (error as { constraint?: string }).constraint === constraint;
}

/** Shared one()/maybeOne() on top of query(), so both drivers behave the same. */
export function pickOne<T>(rows: T[]): T {
  if (rows.length !== 1) throw new RowCountError('one', rows.length);
  return rows[0] as T;
}

export function pickMaybeOne<T>(rows: T[]): T | null {
  if (rows.length > 1) throw new RowCountError('at most one', rows.length);
  return rows[0] ?? null;
}
