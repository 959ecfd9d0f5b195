// /students/ (spec §2): the students table with sorting by ID and First Seen, filters (student ID
// search, congregation for admins, country; search params country and studyHelper) and paging,
// all kept in the address.
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { useListStudents } from '../../../generated/hooks/students/students';
import { useGetStudyHelper } from '../../../generated/hooks/study-helpers/study-helpers';
import type { ListStudentsParams, Student } from '../../../generated/hooks/model';
import { CountryFlag } from '../../components/list/country-flag';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { CongregationPicker } from '../../components/pickers/congregation-picker';
import { CountryPicker } from '../../components/pickers/country-picker';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { studentIdSearch } from './student-search';

export const STUDENTS_EMPTY_MESSAGE = 'There are no students to display';

/** The list's search params: country and studyHelper as the spec names them, plus the other filters. */
const STUDENT_FILTERS = ['studentId', 'congregation', 'country', 'studyHelper'] as const;
type StudentFilter = (typeof STUDENT_FILTERS)[number];

const text = (value: string | null | undefined) => value || '—';

function studentColumns(admin: boolean): ListColumn<Student>[] {
  const columns: (ListColumn<Student> | false)[] = [
    {
      id: 'id',
      header: 'ID',
      sortKey: 'human_id',
      cell: (s) => <Link to={paths.student(s.id)}>{s.human_id}</Link>,
    },
    {
      id: 'service-center',
      header: 'Service Center',
      cell: (s) => text(s.service_center?.name ?? s.latest_answer_sheet?.file.service_center?.name),
    },
    {
      id: 'recruiting-location',
      header: 'Recruiting Location',
      cell: (s) => text(s.recruiting_point?.name ?? s.latest_answer_sheet?.file.recruiting_point?.name),
    },
    {
      id: 'last-lesson',
      header: 'Last Completed Lesson',
      cell: (s) => text(s.latest_answer_sheet?.lesson?.name),
    },
    admin && {
      id: 'congregation',
      header: 'Assigned Congregation',
      cell: (s) => text(s.congregation?.wbs_code),
    },
    { id: 'study-helper', header: 'Assigned Study Helper', cell: (s) => text(s.study_helper?.name) },
    {
      id: 'country',
      header: 'Country',
      cell: (s) => (s.country ? <CountryFlag iso_code={s.country.iso_code} display_name={s.country.display_name} /> : '—'),
    },
    { id: 'last-active', header: 'Last Active', cell: (s) => text(formatRelativeTime(s.last_active_at)) },
    { id: 'first-seen', header: 'First Seen', sortKey: 'created_at', cell: (s) => formatDate(s.created_at) },
  ];
  return columns.filter((c): c is ListColumn<Student> => c !== false);
}

function StudyHelperFilter({ helperId, onClear }: { helperId: string; onClear: () => void }) {
  const helper = useGetStudyHelper(helperId);
  return (
    <div className="filter-field">
      <span className="filter-label">Study Helper</span>
      <span className="filter-chip">
        {helper.data?.name ?? '…'}
        <Button type="button" icon="pi pi-times" text rounded size="small" aria-label="Remove study helper filter" onClick={onClear} />
      </span>
    </div>
  );
}

export default function StudentsList() {
  const user = useCurrentUser();
  const admin = isScanningAdmin(user);
  const list = useListState<StudentFilter>({ filters: STUDENT_FILTERS });
  const { filters } = list;

  const search = studentIdSearch(filters.studentId);
  const searching = search.human_id_prefix !== undefined;
  const limit = searching ? search.limit : list.limit;
  const skip = (list.page - 1) * limit;
  const params: ListStudentsParams = {
    skip,
    limit,
    ...(searching && { human_id_prefix: search.human_id_prefix }),
    ...(filters.country && { country: filters.country }),
    ...(filters.studyHelper && { study_helper: filters.studyHelper }),
    ...(admin && filters.congregation && { congregation: filters.congregation }),
    ...(list.order_by && { order_by: list.order_by as ListStudentsParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const students = useListStudents(params);
  const activeFilters = STUDENT_FILTERS.filter((name) => filters[name] && (admin || name !== 'congregation')).length;

  return (
    <>
      <PageHeader
        title="Students"
        actions={
          <FilterPanel activeCount={activeFilters} onClear={list.clearFilters}>
            <TextFilter
              label="Student ID"
              inputMode="numeric"
              value={filters.studentId}
              onChange={(value) => list.setFilter('studentId', value, { replace: true })}
            />
            {admin && (
              <CongregationPicker value={filters.congregation} onChange={(id) => list.setFilter('congregation', id)} />
            )}
            <CountryPicker value={filters.country} onChange={(code) => list.setFilter('country', code)} />
            {filters.studyHelper && (
              <StudyHelperFilter helperId={filters.studyHelper} onClear={() => list.setFilter('studyHelper', undefined)} />
            )}
          </FilterPanel>
        }
      />
      <PagedList
        label="Students"
        columns={studentColumns(admin)}
        query={students}
        list={{ ...list, skip, limit }}
        rowKey={(s) => s.id}
        rowHref={(s) => paths.student(s.id)}
        emptyMessage={STUDENTS_EMPTY_MESSAGE}
      />
    </>
  );
}
