// Pagination under a list: "Showing X to Y of Z results", Previous, Next and a page number box
// that accepts 1 to the last page and otherwise reverts (spec §2, §5). An address with a page
// beyond the last (an old link, rows deleted meanwhile) goes to the last page.
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { lastPage, parsePageInput, showingText } from './list-state';

export interface PaginationProps {
  skip: number;
  limit: number;
  total: number;
  /** `replace`: the address changes without a new history entry (Back must not return to it). */
  onPageChange: (page: number, options?: { replace?: boolean }) => void;
}

export function Pagination({ skip, limit, total, onPageChange }: PaginationProps) {
  const page = limit > 0 ? Math.floor(skip / limit) + 1 : 1;
  const last = lastPage(total, limit);
  // What the user is typing; null shows the current page.
  const [draft, setDraft] = useState<string | null>(null);

  // Only once rows are known to exist: while loading, total is 0.
  useEffect(() => {
    if (total > 0 && page > last) onPageChange(last, { replace: true });
  }, [total, page, last, onPageChange]);

  const commit = () => {
    if (draft === null) return;
    const target = parsePageInput(draft, last);
    setDraft(null);
    if (target !== null && target !== page) onPageChange(target);
  };

  return (
    <nav className="list-pagination" aria-label="Pagination">
      <span className="list-pagination-summary">{showingText(skip, limit, total)}</span>
      <div className="list-pagination-controls">
        <Button
          type="button"
          label="Previous"
          icon="pi pi-angle-left"
          outlined
          size="small"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        />
        <span className="list-pagination-page">
          <InputText
            aria-label="Page number"
            inputMode="numeric"
            className="list-pagination-input p-inputtext-sm"
            value={draft ?? String(page)}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commit();
              if (event.key === 'Escape') setDraft(null);
            }}
          />
          <span aria-hidden="true"> of {last}</span>
        </span>
        <Button
          type="button"
          label="Next"
          icon="pi pi-angle-right"
          iconPos="right"
          outlined
          size="small"
          disabled={page >= last}
          onClick={() => onPageChange(page + 1)}
        />
      </div>
    </nav>
  );
}
