// The table of a list screen: headers (sortable where a column says so), one row per item with an
// optional link for the whole row, and the loading, error and empty states.
import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Button } from 'primereact/button';
import { SortableHeader } from './sortable-header';
import type { SortDirection } from './list-state';
import { isRefused, notAvailable } from '../../lib/refusal';

export interface ListColumn<T> {
  id: string;
  header: string;
  /** The order_by value that sorts by this column; absent for a column that does not sort. */
  sortKey?: string;
  cell: (row: T) => ReactNode;
  /** On the column's cells and header; `list-col-secondary` hides it on a phone's width. */
  className?: string;
}

export interface ListTableProps<T> {
  columns: readonly ListColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  /** Where a click on the row goes (put a real link in one of its cells for keyboard users). */
  rowHref?: (row: T) => string;
  /** The text shown when there are no rows (the spec's wording per screen). */
  emptyMessage: string;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  orderBy?: string;
  orderDirection?: SortDirection;
  onSort?: (sortKey: string) => void;
  /** The table's accessible name. */
  label?: string;
}

const INTERACTIVE = 'a, button, input, select, textarea, [role="button"], [role="combobox"]';

export function ListTable<T>(props: ListTableProps<T>) {
  const { columns, rows, rowKey, rowHref, emptyMessage, loading, error, onRetry, orderBy, orderDirection, onSort, label } =
    props;
  const navigate = useNavigate();

  const onRowClick = (row: T) => (event: MouseEvent<HTMLTableRowElement>) => {
    if (!rowHref) return;
    if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
    navigate(rowHref(row));
  };

  let body: ReactNode;
  if (error && isRefused(error)) {
    // A refusal: trying again would not change it.
    body = (
      <tr>
        <td colSpan={columns.length} className="list-message" role="alert">
          {notAvailable('list')}
        </td>
      </tr>
    );
  } else if (error) {
    body = (
      <tr>
        <td colSpan={columns.length} className="list-message" role="alert">
          Could not load this list.
          {onRetry && <Button type="button" label="Try again" text size="small" onClick={onRetry} />}
        </td>
      </tr>
    );
  } else if (loading && !rows) {
    body = (
      <tr>
        <td colSpan={columns.length} className="list-message">
          <ProgressSpinner style={{ width: '2rem', height: '2rem' }} aria-label="Loading" />
        </td>
      </tr>
    );
  } else if (!rows || rows.length === 0) {
    body = (
      <tr>
        <td colSpan={columns.length} className="list-message">
          {emptyMessage}
        </td>
      </tr>
    );
  } else {
    body = rows.map((row) => (
      <tr key={rowKey(row)} className={rowHref ? 'list-row-link' : undefined} onClick={onRowClick(row)}>
        {columns.map((column) => (
          <td key={column.id} className={column.className}>
            {column.cell(row)}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <div className="list-table-wrapper">
      <table className="list-table" aria-label={label} aria-busy={loading || undefined}>
        <thead>
          <tr>
            {columns.map((column) =>
              column.sortKey && onSort ? (
                <SortableHeader
                  key={column.id}
                  label={column.header}
                  sortKey={column.sortKey}
                  orderBy={orderBy}
                  direction={orderDirection}
                  onSort={onSort}
                  className={column.className}
                />
              ) : (
                <th key={column.id} scope="col" className={column.className}>
                  {column.header}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </table>
    </div>
  );
}
