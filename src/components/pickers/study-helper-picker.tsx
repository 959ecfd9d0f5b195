// Picks a study helper, searched by name on the server (GET /api/study-helpers): a congregation's
// own helpers when one is given, otherwise every helper the user may see. The value is the
// helper's id. Used as a filter (files), on the student card and in the graded upload.
import { useState } from 'react';
import { useGetStudyHelper, useListStudyHelpers } from '../../../generated/hooks/study-helpers/study-helpers';
import { SearchPicker } from './search-picker';

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
  const [search, setSearch] = useState('');
  const list = useListStudyHelpers({
    limit: PICKER_PAGE,
    ...(search && { name: search }),
    ...(congregationId && { congregation: congregationId }),
  });
  // The chosen helper may be outside the page searched: fetch it to show its name.
  const chosen = useGetStudyHelper(value ?? '', { query: { enabled: Boolean(value) } });
  return (
    <SearchPicker
      label={label}
      value={value}
      onChange={onChange}
      onSearch={setSearch}
      items={list.data?.items}
      chosen={chosen.data}
      optionLabel={helperName}
      loading={list.isLoading}
      placeholder={placeholder}
      className={className}
      disabled={disabled}
      showClear
      emptyMessage="No study helpers"
    />
  );
}

const helperName = (helper: { name: string }) => helper.name;
