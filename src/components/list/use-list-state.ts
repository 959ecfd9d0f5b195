// A list screen's filters, sort and page, kept in the address's search params (reload and back
// keep them). Returns the values to send to the API and the setters the list kit calls.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  applyListChange,
  readListState,
  type ListChange,
  type ListStateConfig,
  type ListStateValues,
  type SortDirection,
} from './list-state';

export interface ListState<F extends string = string> extends ListStateValues<F> {
  /**
   * Sets one filter (undefined or '' clears it) and goes back to page 1. A new history entry is
   * added unless `replace` (for typing in a search box).
   */
  setFilter: (name: F, value: string | undefined, options?: { replace?: boolean }) => void;
  clearFilters: () => void;
  /** Sorts by a column; without a direction, toggles asc/desc on the current column. */
  setSort: (orderBy: string, direction?: SortDirection) => void;
  /** Goes to a page; `replace` changes the address without a new history entry. */
  setPage: (page: number, options?: { replace?: boolean }) => void;
}

export function useListState<F extends string = never>(options: ListStateConfig<F> = {}): ListState<F> {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pageSize, orderBy, orderDirection, prefix } = options;
  // The filter names arrive as a fresh array each render; key the config on their content.
  const filterKey = (options.filters ?? []).join('\u0000');
  const config = useMemo<ListStateConfig<F>>(
    () => ({
      pageSize,
      orderBy,
      orderDirection,
      prefix,
      filters: (filterKey === '' ? [] : filterKey.split('\u0000')) as F[],
    }),
    [pageSize, orderBy, orderDirection, prefix, filterKey],
  );
  const values = useMemo(() => readListState(searchParams, config), [searchParams, config]);

  const change = useCallback(
    (listChange: ListChange<F>, replace: boolean) =>
      setSearchParams((current) => applyListChange(current, listChange, config), { replace }),
    [setSearchParams, config],
  );

  return {
    ...values,
    setFilter: useCallback(
      (name, value, opts) => change({ type: 'filter', name, value }, opts?.replace ?? false),
      [change],
    ),
    clearFilters: useCallback(() => change({ type: 'clearFilters' }, false), [change]),
    setSort: useCallback((by, direction) => change({ type: 'sort', orderBy: by, direction }, false), [change]),
    setPage: useCallback((page, opts) => change({ type: 'page', page }, opts?.replace ?? false), [change]),
  };
}
