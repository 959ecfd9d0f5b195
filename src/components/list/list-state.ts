// A list screen's state (filters, sort, page) read from and written to the address's search
// params, so reload, back and shared links keep it (spec §2 "Common list behaviour"). Pure: the
// hook in use-list-state.ts binds it to the router.
import { DEFAULT_PAGE_SIZE } from '../../../machines/constants';

export type SortDirection = 'asc' | 'desc';

export interface ListStateConfig<F extends string = string> {
  /** Rows per page (default 10, spec §9). */
  pageSize?: number;
  /** The sort when the address names none. */
  orderBy?: string;
  orderDirection?: SortDirection;
  /** The search params this list reads as filters (e.g. country, studyHelper). */
  filters?: readonly F[];
  /** Prefix of the list's own params, for a screen with two lists. */
  prefix?: string;
}

export interface ListStateValues<F extends string = string> {
  /** 1-based page number. */
  page: number;
  skip: number;
  limit: number;
  order_by: string | undefined;
  order_direction: SortDirection | undefined;
  /** Every configured filter, undefined when unset. */
  filters: Record<F, string | undefined>;
}

/** The search param names a list uses. */
export function listParamNames(prefix = ''): { page: string; orderBy: string; orderDirection: string } {
  return { page: `${prefix}page`, orderBy: `${prefix}order_by`, orderDirection: `${prefix}order_direction` };
}

function parsePage(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw)) return 1;
  const page = Number(raw);
  return page >= 1 ? page : 1;
}

function parseDirection(raw: string | null): SortDirection | undefined {
  return raw === 'asc' || raw === 'desc' ? raw : undefined;
}

export function readListState<F extends string>(
  search: URLSearchParams,
  config: ListStateConfig<F> = {},
): ListStateValues<F> {
  const names = listParamNames(config.prefix);
  const limit = config.pageSize ?? DEFAULT_PAGE_SIZE;
  const page = parsePage(search.get(names.page));
  const orderByParam = search.get(names.orderBy);
  const order_by = orderByParam || config.orderBy;
  const order_direction =
    parseDirection(search.get(names.orderDirection)) ?? (order_by !== undefined ? (config.orderDirection ?? 'asc') : undefined);
  const filters = {} as Record<F, string | undefined>;
  for (const name of config.filters ?? []) {
    const value = search.get(`${config.prefix ?? ''}${name}`);
    filters[name] = value === null || value === '' ? undefined : value;
  }
  return { page, skip: (page - 1) * limit, limit, order_by, order_direction, filters };
}

export type ListChange<F extends string = string> =
  | { type: 'filter'; name: F; value: string | undefined }
  | { type: 'sort'; orderBy: string; direction?: SortDirection }
  | { type: 'page'; page: number }
  | { type: 'clearFilters' };

/** The direction a click on a column header asks for: the opposite of the current one, or asc. */
export function nextSortDirection(
  current: { order_by: string | undefined; order_direction: SortDirection | undefined },
  orderBy: string,
): SortDirection {
  if (current.order_by !== orderBy) return 'asc';
  return current.order_direction === 'asc' ? 'desc' : 'asc';
}

/**
 * The search params after a change. Values equal to the defaults are left out so addresses stay
 * short; a filter or sort change goes back to page 1. Params the list does not own are kept.
 */
export function applyListChange<F extends string>(
  search: URLSearchParams,
  change: ListChange<F>,
  config: ListStateConfig<F> = {},
): URLSearchParams {
  const next = new URLSearchParams(search);
  const prefix = config.prefix ?? '';
  const names = listParamNames(prefix);
  const current = readListState(search, config);
  switch (change.type) {
    case 'filter': {
      const key = `${prefix}${change.name}`;
      if (change.value === undefined || change.value === '') next.delete(key);
      else next.set(key, change.value);
      next.delete(names.page);
      break;
    }
    case 'clearFilters': {
      for (const name of config.filters ?? []) next.delete(`${prefix}${name}`);
      next.delete(names.page);
      break;
    }
    case 'sort': {
      const direction = change.direction ?? nextSortDirection(current, change.orderBy);
      const isDefault =
        change.orderBy === config.orderBy && direction === (config.orderDirection ?? 'asc');
      if (isDefault) {
        next.delete(names.orderBy);
        next.delete(names.orderDirection);
      } else {
        next.set(names.orderBy, change.orderBy);
        next.set(names.orderDirection, direction);
      }
      next.delete(names.page);
      break;
    }
    case 'page': {
      const page = Math.max(1, Math.floor(change.page));
      if (page === 1) next.delete(names.page);
      else next.set(names.page, String(page));
      break;
    }
  }
  return next;
}

/** The last page number for a total (at least 1, so an empty list still has page 1). */
export function lastPage(total: number, limit: number): number {
  if (limit <= 0) return 1;
  return Math.max(1, Math.ceil(total / limit));
}

/** "Showing X to Y of Z results" for a page of a list. */
export function showingText(skip: number, limit: number, total: number): string {
  if (total <= 0) return 'Showing 0 to 0 of 0 results';
  const from = Math.min(skip + 1, total);
  const to = Math.min(skip + limit, total);
  return `Showing ${from} to ${to} of ${total} results`;
}

/** The page a typed page number goes to: a whole number from 1 to the last page, else null (revert). */
export function parsePageInput(text: string, last: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const page = Number(trimmed);
  return page >= 1 && page <= last ? page : null;
}
