// Picks a congregation (GET /api/congregations, searched by WBS code on the server); value is its id.
import { useState } from 'react';
import { useGetCongregation, useListCongregations } from '../../../generated/hooks/congregations/congregations';
import type { Congregation } from '../../../generated/hooks/model';
import { SearchPicker } from './search-picker';

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
  const [search, setSearch] = useState('');
  const list = useListCongregations({ wbs_code: search || undefined, limit: PICKER_PAGE });
  // The chosen congregation may be outside the page searched: fetch it to show its name.
  const chosen = useGetCongregation(value ?? '', { query: { enabled: Boolean(value) } });
  return (
    <SearchPicker
      label={label}
      value={value}
      onChange={onChange}
      onSearch={setSearch}
      items={list.data?.items}
      chosen={chosen.data}
      optionLabel={congregationLabel}
      loading={list.isLoading}
      placeholder={placeholder}
      className="filter-field"
      disabled={disabled}
      showClear={!disabled}
    />
  );
}
