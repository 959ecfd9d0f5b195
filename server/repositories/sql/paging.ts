// Paging and sorting in SQL: the page asked for, and ORDER BY built only from a whitelist of
// columns so a query value never reaches the SQL.

export interface Page {
  skip: number;
  limit: number;
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
