// A paged list screen's table and pager in one: the page, sort and filters live in the address
// (useListState), the rows come from a query, and loading, empty and error (the server's words
// and a retry) show in the table, so no screen wires these states itself.
import { ListTable, type ListTableProps } from './list-table';
import { Pagination } from './pagination';
import type { ListState } from './use-list-state';

/** A page of a list as the API returns it. */
export interface ListPage<T> {
  items: readonly T[];
  total: number;
}

/** The parts of a TanStack query result the list reads. */
export interface ListQuery<T> {
  data: ListPage<T> | undefined;
  isLoading: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The list's address-held state: the page to show and how to change page and sort. */
export type PagedListState = Pick<ListState, 'skip' | 'limit' | 'order_by' | 'order_direction' | 'setSort' | 'setPage'>;

export interface PagedListProps<T>
  extends Omit<ListTableProps<T>, 'rows' | 'loading' | 'error' | 'onRetry' | 'orderBy' | 'orderDirection' | 'onSort'> {
  query: ListQuery<T>;
  list: PagedListState;
}

export function PagedList<T>({ query, list, ...table }: PagedListProps<T>) {
  return (
    <>
      <ListTable
        {...table}
        rows={query.data?.items}
        loading={query.isLoading}
        error={query.error}
        onRetry={() => void query.refetch()}
        orderBy={list.order_by}
        orderDirection={list.order_direction}
        onSort={(key) => list.setSort(key)}
      />
      <Pagination skip={list.skip} limit={list.limit} total={query.data?.total ?? 0} onPageChange={list.setPage} />
    </>
  );
}
