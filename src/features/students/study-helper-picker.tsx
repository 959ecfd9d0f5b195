// Picks a study helper (GET /api/study-helpers, searched by name, within a congregation when one
// is given); value is the helper's id.
import { useId, useMemo, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useGetStudyHelper, useListStudyHelpers } from '../../../generated/hooks/study-helpers/study-helpers';

const PICKER_PAGE = 50;

export interface StudyHelperPickerProps {
  label?: string;
  value: string | undefined;
  onChange: (studyHelperId: string | undefined) => void;
  /** Only this congregation's helpers. */
  congregation?: string | undefined;
  disabled?: boolean;
}

export function StudyHelperPicker({ label = 'Study Helper', value, onChange, congregation, disabled }: StudyHelperPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const list = useListStudyHelpers({
    limit: PICKER_PAGE,
    ...(search && { name: search }),
    ...(congregation && { congregation }),
  });
  // The chosen helper may be outside the page searched: fetch it to show its name.
  const chosen = useGetStudyHelper(value ?? '', { query: { enabled: Boolean(value) } });
  const options = useMemo(() => {
    const items = [...(list.data?.items ?? [])];
    if (chosen.data && !items.some((h) => h.id === chosen.data.id)) items.unshift(chosen.data);
    return items.map((h) => ({ value: h.id, label: h.name }));
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
        showClear
        placeholder="No study helper"
        loading={list.isLoading}
        disabled={disabled}
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
