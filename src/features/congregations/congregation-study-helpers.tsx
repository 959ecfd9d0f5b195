// /admin/congregations/{group_id}/study-helpers (spec §2): the congregation's study helpers
// (GET /api/congregations/{id}/study-helpers) with a name filter and paging in the address;
// side links Files, Study Helpers and View As. An admin may delete a helper made by mistake (the
// server refuses one with students, and says why).
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { getListCongregationStudyHelpersQueryKey, useListCongregationStudyHelpers } from '../../../generated/hooks/congregations/congregations';
import { useDeleteStudyHelper } from '../../../generated/hooks/study-helpers/study-helpers';
import type { ListCongregationStudyHelpersParams, StudyHelper } from '../../../generated/hooks/model';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { DeleteAction } from '../../components/ui/delete-action';
import { paths, routes } from '../../config/paths';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { formatDate, formatRelativeTime } from '../../lib/format';
import { CongregationPage, useGroupId } from './congregation-page';

export const CONGREGATION_STUDY_HELPERS_EMPTY_MESSAGE = 'There are no study helpers to display';

const HELPER_FILTERS = ['name'] as const;

const baseColumns: ListColumn<StudyHelper>[] = [
  { id: 'name', header: 'Study Helper', cell: (h) => <Link to={paths.studyHelper(h.id)}>{h.name}</Link> },
  {
    id: 'students',
    header: 'Students',
    cell: (h) => (
      <Link to={paths.students({ studyHelper: h.id })} aria-label={`${h.student_count} students of ${h.name}`}>
        {h.student_count}
      </Link>
    ),
  },
  { id: 'last-active', header: 'Last Active', cell: (h) => formatRelativeTime(h.last_active_at) || '—' },
  { id: 'added', header: 'Added', cell: (h) => formatDate(h.created_at) },
];

export default function CongregationStudyHelpers() {
  const groupId = useGroupId();
  const list = useListState({ filters: HELPER_FILTERS });
  const params: ListCongregationStudyHelpersParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.name && { name: list.filters.name }),
  };
  const helpers = useListCongregationStudyHelpers(groupId, params);
  const admin = isScanningAdmin(useCurrentUser());
  const queryClient = useQueryClient();
  const remove = useDeleteStudyHelper();
  const columns: ListColumn<StudyHelper>[] = admin
    ? [
        ...baseColumns,
        {
          id: 'actions',
          header: '',
          cell: (h) => (
            <DeleteAction
              what="study helper"
              name={h.name}
              run={() => remove.mutateAsync({ id: h.id })}
              onDone={() => void queryClient.invalidateQueries({ queryKey: getListCongregationStudyHelpersQueryKey(groupId) })}
            />
          ),
        },
      ]
    : baseColumns;

  return (
    <CongregationPage
      groupId={groupId}
      current="studyHelpers"
      title={routes.congregationStudyHelpers.title}
      actions={
        <FilterPanel activeCount={list.filters.name ? 1 : 0} onClear={list.clearFilters}>
          <TextFilter
            label="Name"
            value={list.filters.name}
            onChange={(value) => list.setFilter('name', value, { replace: true })}
          />
        </FilterPanel>
      }
    >
      <PagedList
        label="Study Helpers"
        columns={columns}
        query={helpers}
        list={list}
        rowKey={(h) => h.id}
        rowHref={(h) => paths.studyHelper(h.id)}
        emptyMessage={CONGREGATION_STUDY_HELPERS_EMPTY_MESSAGE}
      />
    </CongregationPage>
  );
}
