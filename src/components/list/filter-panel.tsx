// The filter panel of a list: a Filter icon button that slides a panel in from the right.
import { useState, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Sidebar } from 'primereact/sidebar';

export interface FilterPanelProps {
  /** How many filters are set (shown on the button). */
  activeCount?: number;
  onClear?: () => void;
  children: ReactNode;
}

export function FilterPanel({ activeCount = 0, onClear, children }: FilterPanelProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="button"
        icon="pi pi-filter"
        outlined
        aria-label="Filter"
        aria-expanded={open}
        badge={activeCount > 0 ? String(activeCount) : undefined}
        onClick={() => setOpen(true)}
      />
      <Sidebar
        visible={open}
        position="right"
        onHide={() => setOpen(false)}
        header={<h2 className="filter-panel-title">Filters</h2>}
        aria-label="Filters"
      >
        <div className="filter-panel-body">{children}</div>
        {onClear && (
          <Button type="button" label="Clear filters" text className="filter-panel-clear" onClick={onClear} disabled={activeCount === 0} />
        )}
      </Sidebar>
    </>
  );
}
