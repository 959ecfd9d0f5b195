// Picks a student by their ID, searched on the server as the digits are typed
// (GET /api/students?human_id_prefix=…). Names the student of a response started by hand in Review.
import { useState } from 'react';
import { useGetStudent, useListStudents } from '../../../generated/hooks/students/students';
import { SearchPicker } from './search-picker';

/** Students listed per search. */
const PICKER_PAGE = 50;

export function studentLabel(student: { human_id: number; name: string }): string {
  return student.name ? `${student.human_id} (${student.name})` : String(student.human_id);
}

export function StudentPicker({
  value,
  onChange,
  disabled,
}: {
  value: string | undefined;
  onChange: (studentId: string | undefined) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const digits = search.replace(/\D/g, '').slice(0, 12);
  const list = useListStudents({ limit: PICKER_PAGE, ...(digits && { human_id_prefix: digits }) });
  const chosen = useGetStudent(value ?? '', { query: { enabled: Boolean(value) } });
  return (
    <SearchPicker
      label="Student"
      value={value}
      onChange={onChange}
      onSearch={setSearch}
      items={list.data?.items}
      chosen={chosen.data}
      optionLabel={studentLabel}
      loading={list.isLoading}
      placeholder="Type the student's ID"
      className="form-field"
      disabled={disabled}
      showClear
      emptyMessage="No student with this ID"
    />
  );
}
