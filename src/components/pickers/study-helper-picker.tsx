// Picks a study helper, searched by name on the server (GET /api/study-helpers): a congregation's
// own helpers when one is given, otherwise every helper the user may see. The value is the
// helper's id. Used as a filter (files), on the student card and in the graded upload.
import { useId, useMemo, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useGetStudyHelper, useListStudyHelpers } from '../../../generated/hooks/study-helpers/study-helpers';

/** Helpers listed per search; a congregation rarely has more. */
const PICKER_PAGE = 100;

export interface StudyHelperPickerProps {
  label?: string;
  value: string | undefined;
  onChange: (studyHelperId: string | undefined) => void;
  /** Only this congregation's helpers. */
  congregationId?: string | undefined;
  placeholder?: string;
  /** Class of the wrapper (default: a filter field). */
  className?: string;
  disabled?: boolean;
}

export function StudyHelperPicker({
  label = 'Study Helper',
  value,
  onChange,
  congregationId,
  placeholder = 'Any study helper',
  className = 'filter-field',
  disabled,
}: StudyHelperPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const list = useListStudyHelpers({
    limit: PICKER_PAGE,
    ...(search && { name: search }),
    ...(congregationId && { congregation: congregationId }),
  });
  // The chosen helper may be outside the page searched: fetch it to show its name.
  const chosen = useGetStudyHelper(value ?? '', { query: { enabled: Boolean(value) } });
  const options = useMemo(() => {
    const items = [...(list.data?.items ?? [])];
    if (chosen.data && !items.some((helper) => helper.id === chosen.data.id)) items.unshift(chosen.data);
    return items.map((helper) => ({ value: helper.id, label: helper.name }));
  }, [list.data, chosen.data]);

  return (
    <div className={className}>
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
        placeholder={placeholder}
        loading={list.isLoading}
        disabled={disabled}
        emptyMessage="No study helpers"
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
