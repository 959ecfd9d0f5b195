// Paging and sorting of every list call: skip/limit as the contract gives them (defaults
// already applied by the contract plugin), one answer shape {items, total, skip, limit}, and
// ORDER BY built only from a whitelist of columns so a query value never reaches the SQL.

/** Fallbacks for callers that bypass the contract plugin; the contract says skip 0, limit 10. */
export const DEFAULT_SKIP = 0;
export const DEFAULT_LIMIT = 10;

export interface Page {
  skip: number;
  limit: number;
}

export function pageOf(query: { skip?: number; limit?: number }): Page {
  return { skip: query.skip ?? DEFAULT_SKIP, limit: query.limit ?? DEFAULT_LIMIT };
}

export function paged<T>(items: T[], total: number, page: Page): { items: T[]; total: number; skip: number; limit: number } {
  return { items, total, skip: page.skip, limit: page.limit };
}

export type Direction = 'asc' | 'desc';

export interface SortColumn {
  /** SQL expression sorted on (trusted: written in the route module, never from a request). */
  sql: string;
  /** Direction when the caller names none: names read A to Z, dates newest first. */
  defaultDirection: Direction;
}

/**
 * `ORDER BY` text for a whitelisted column, with a unique tie-breaker so paging never skips or
 * repeats rows that share a sort value.
 */
export function orderClause<K extends string>(
  columns: Record<K, SortColumn>,
  orderBy: K,
  direction: Direction | undefined,
  tieBreaker: string,
): string {
  const dir = sortDirection(columns, orderBy, direction);
  return `ORDER BY ${columns[orderBy].sql} ${dir}, ${tieBreaker} ${dir}`;
}

/** The SQL direction of a sort: the one asked for, else the column's default. */
export function sortDirection<K extends string>(columns: Record<K, SortColumn>, orderBy: K, direction: Direction | undefined): 'ASC' | 'DESC' {
  return (direction ?? columns[orderBy].defaultDirection) === 'asc' ? 'ASC' : 'DESC';
}
