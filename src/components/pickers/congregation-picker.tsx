// Picks a congregation (GET /api/congregations, searched by WBS code on the server); value is its id.
import { useId, useMemo, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useGetCongregation, useListCongregations } from '../../../generated/hooks/congregations/congregations';
import type { Congregation } from '../../../generated/hooks/model';

const PICKER_PAGE = 50;

export interface CongregationPickerProps {
  label?: string;
  value: string | undefined;
  onChange: (congregationId: string | undefined) => void;
  placeholder?: string;
  /** Shown but not changeable (say why beside it). */
  disabled?: boolean;
}

function congregationLabel(congregation: Pick<Congregation, 'wbs_code' | 'display_name'>): string {
  return congregation.display_name ? `${congregation.wbs_code} (${congregation.display_name})` : congregation.wbs_code;
}

export function CongregationPicker({
  label = 'Congregation',
  value,
  onChange,
  placeholder = 'Any congregation',
  disabled = false,
}: CongregationPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const list = useListCongregations({ wbs_code: search || undefined, limit: PICKER_PAGE });
  // The chosen congregation may be outside the page searched: fetch it to show its name.
  const chosen = useGetCongregation(value ?? '', { query: { enabled: Boolean(value) } });
  const options = useMemo(() => {
    const items = [...(list.data?.items ?? [])];
    if (chosen.data && !items.some((c) => c.id === chosen.data.id)) items.unshift(chosen.data);
    return items.map((c) => ({ value: c.id, label: congregationLabel(c) }));
  }, [list.data, chosen.data]);

  return (
    <div className="filter-field">
      <label htmlFor={id}>{label}</label>
      <Dropdown
        inputId={id}
        // PrimeReact's native <select> copy of the value is for forms only: keep it out of the
        // accessibility tree (the labelled combobox input is what assistive technology uses).
        pt={{ select: { 'aria-hidden': true } }}
        value={value ?? null}
        options={options}
        optionValue="value"
        optionLabel="label"
        filter
        onFilter={(event) => setSearch(event.filter)}
        showClear={!disabled}
        disabled={disabled}
        placeholder={placeholder}
        loading={list.isLoading}
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
