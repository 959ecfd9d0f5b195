// The table of a list screen: headers (sortable where a column says so), one row per item with an
// optional link for the whole row, and the loading, error and empty states.
import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Button } from 'primereact/button';
import { SortableHeader } from './sortable-header';
import type { SortDirection } from './list-state';
import { isRefused, notAvailable, serverMessage } from '../../lib/refusal';

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

/** One row across the table, for a state instead of rows. */
function MessageRow({ span, alert, children }: { span: number; alert?: boolean; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={span} className="list-message" role={alert ? 'alert' : undefined}>
        {children}
      </td>
    </tr>
  );
}

/** A failed load: a refusal (trying again would not change it), else the server's words and a retry. */
function ErrorRow({ span, error, onRetry }: { span: number; error: unknown; onRetry?: () => void }) {
  if (isRefused(error)) {
    return (
      <MessageRow span={span} alert>
        {notAvailable('list')}
      </MessageRow>
    );
  }
  const said = serverMessage(error);
  return (
    <MessageRow span={span} alert>
      <span>Could not load this list.</span>
      {said && <span className="list-message-detail"> {said}</span>}
      {onRetry && <Button type="button" label="Try again" text size="small" onClick={onRetry} />}
    </MessageRow>
  );
}

function Rows<T>({ columns, rows, rowKey, rowHref }: Pick<ListTableProps<T>, 'columns' | 'rowKey' | 'rowHref'> & { rows: readonly T[] }) {
  const navigate = useNavigate();
  const onRowClick = (row: T) => (event: MouseEvent<HTMLTableRowElement>) => {
    if (!rowHref) return;
    if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
    navigate(rowHref(row));
  };
  return rows.map((row) => (
    <tr key={rowKey(row)} className={rowHref ? 'list-row-link' : undefined} onClick={onRowClick(row)}>
      {columns.map((column) => (
        <td key={column.id} className={column.className}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  ));
}

function ListBody<T>(props: ListTableProps<T>) {
  const { columns, rows, emptyMessage, loading, error, onRetry } = props;
  const span = columns.length;
  if (error) return <ErrorRow span={span} error={error} onRetry={onRetry} />;
  if (loading && !rows) {
    return (
      <MessageRow span={span}>
        <ProgressSpinner style={{ width: '2rem', height: '2rem' }} aria-label="Loading" />
      </MessageRow>
    );
  }
  if (!rows || rows.length === 0) return <MessageRow span={span}>{emptyMessage}</MessageRow>;
  return <Rows columns={columns} rows={rows} rowKey={props.rowKey} rowHref={props.rowHref} />;
}

function ListHead<T>({ columns, orderBy, orderDirection, onSort }: Pick<ListTableProps<T>, 'columns' | 'orderBy' | 'orderDirection' | 'onSort'>) {
  return (
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
  );
}

export function ListTable<T>(props: ListTableProps<T>) {
  return (
    <div className="list-table-wrapper">
      <table className="list-table" aria-label={props.label} aria-busy={props.loading || undefined}>
        <ListHead columns={props.columns} orderBy={props.orderBy} orderDirection={props.orderDirection} onSort={props.onSort} />
        <tbody>
          <ListBody {...props} />
        </tbody>
      </table>
    </div>
  );
}
