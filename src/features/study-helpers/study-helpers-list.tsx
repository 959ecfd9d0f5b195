// /study-helpers/ (spec §2): ID, Study Helper, Students, Last Active; a name filter; "Add A New
// Study Helper" for a user acting for a congregation.
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { useListStudyHelpers } from '../../../generated/hooks/study-helpers/study-helpers';
import type { ListStudyHelpersParams, StudyHelper } from '../../../generated/hooks/model';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { hasCongregation, useCurrentUser } from '../../lib/auth';
import { formatRelativeTime, shortId } from '../../lib/format';
import { ADD_STUDY_HELPER_TITLE, AddStudyHelperDialog } from './add-study-helper-dialog';

export const STUDY_HELPERS_EMPTY_MESSAGE = 'There are no study helpers to display';

const STUDY_HELPER_FILTERS = ['name'] as const;

const columns: ListColumn<StudyHelper>[] = [
  {
    id: 'id',
    header: 'ID',
    cell: (h) => (
      <Link to={paths.studyHelper(h.id)} title={h.id}>
        {shortId(h.id)}
      </Link>
    ),
  },
  { id: 'name', header: 'Study Helper', cell: (h) => h.name },
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
];

export default function StudyHelpersList() {
  const user = useCurrentUser();
  const list = useListState({ filters: STUDY_HELPER_FILTERS });
  const [adding, setAdding] = useState(false);
  const params: ListStudyHelpersParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.name && { name: list.filters.name }),
    ...(hasCongregation(user) && { congregation: user.congregation }),
  };
  const helpers = useListStudyHelpers(params);

  return (
    <>
      <PageHeader
        title="Study Helpers"
        actions={
          <>
            {hasCongregation(user) && (
              <Button type="button" label={ADD_STUDY_HELPER_TITLE} icon="pi pi-plus" onClick={() => setAdding(true)} />
            )}
            <FilterPanel activeCount={list.filters.name ? 1 : 0} onClear={list.clearFilters}>
              <TextFilter
                label="Name"
                value={list.filters.name}
                onChange={(value) => list.setFilter('name', value, { replace: true })}
              />
            </FilterPanel>
          </>
        }
      />
      <PagedList
        label="Study Helpers"
        columns={columns}
        query={helpers}
        list={list}
        rowKey={(h) => h.id}
        rowHref={(h) => paths.studyHelper(h.id)}
        emptyMessage={STUDY_HELPERS_EMPTY_MESSAGE}
      />
      {hasCongregation(user) && (
        <AddStudyHelperDialog congregationId={user.congregation} visible={adding} onHide={() => setAdding(false)} />
      )}
    </>
  );
}
