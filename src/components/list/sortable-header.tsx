// A column header that sorts its list: a click sorts by the column, a second click flips asc/desc.
import type { SortDirection } from './list-state';

export interface SortableHeaderProps {
  label: string;
  /** The order_by value this column sorts by. */
  sortKey: string;
  orderBy: string | undefined;
  direction: SortDirection | undefined;
  onSort: (sortKey: string) => void;
  className?: string;
}

export function SortableHeader({ label, sortKey, orderBy, direction, onSort, className }: SortableHeaderProps) {
  const active = orderBy === sortKey;
  const ariaSort = active ? (direction === 'desc' ? 'descending' : 'ascending') : 'none';
  const icon = active ? (direction === 'desc' ? 'pi-sort-amount-down' : 'pi-sort-amount-up-alt') : 'pi-sort-alt';
  return (
    <th scope="col" aria-sort={ariaSort} className={[active ? 'list-sorted' : null, className].filter(Boolean).join(' ') || undefined}>
      <button type="button" className="list-sort-button" onClick={() => onSort(sortKey)}>
        <span>{label}</span>
        <span className={`pi ${icon}`} aria-hidden="true" />
      </button>
    </th>
  );
}
