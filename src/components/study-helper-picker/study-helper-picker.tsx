// Picks a study helper, searched by name on the server: a congregation's own helpers
// (GET /api/congregations/{id}/study-helpers) or, without a congregation, every helper the user
// may see (GET /api/study-helpers). The value is the helper's id.
import { useId, useMemo, useState } from 'react';
import { Dropdown } from 'primereact/dropdown';
import { useListCongregationStudyHelpers } from '../../../generated/hooks/congregations/congregations';
import { useGetStudyHelper, useListStudyHelpers } from '../../../generated/hooks/study-helpers/study-helpers';

/** Helpers listed per search; a congregation rarely has more. */
const PICKER_PAGE = 100;

export interface StudyHelperPickerProps {
  label?: string;
  value: string | undefined;
  onChange: (studyHelperId: string | undefined) => void;
  /** Only this congregation's helpers. */
  congregationId?: string;
  placeholder?: string;
  /** Class of the wrapper (default: a filter field). */
  className?: string;
}

export function StudyHelperPicker({
  label = 'Study Helper',
  value,
  onChange,
  congregationId,
  placeholder = 'Any study helper',
  className = 'filter-field',
}: StudyHelperPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const params = { name: search || undefined, limit: PICKER_PAGE };
  const ofCongregation = useListCongregationStudyHelpers(congregationId ?? '', params, {
    query: { enabled: Boolean(congregationId) },
  });
  const everyone = useListStudyHelpers(params, { query: { enabled: !congregationId } });
  const list = congregationId ? ofCongregation : everyone;
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
        value={value ?? null}
        options={options}
        optionValue="value"
        optionLabel="label"
        filter
        onFilter={(event) => setSearch(event.filter)}
        showClear
        placeholder={placeholder}
        loading={list.isLoading}
        emptyMessage="No study helpers"
        onChange={(event) => onChange((event.value as string | null) ?? undefined)}
      />
    </div>
  );
}
