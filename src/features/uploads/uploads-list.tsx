// /files/uploads/ (spec §2): the uploads (GET /api/uploads/): a coordinator's graded uploads, or
// for an admin the service centers' files and every congregation's graded uploads, of one
// congregation when the address has groupId (the filter panel's picker); columns Name and Create
// Time, both sortable, Kind and Pages (matched / not matched, from each upload's report); sort
// and page live in the address. A graded upload sent by mistake may be withdrawn: the pages it
// graded are ungraded again, and a file it completed goes back to Grading (the server refuses once
// a file it graded was downloaded or archived, and says why).
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { withdrawQuestion } from './withdraw-question';
import { getListUploadsQueryKey, useListUploads, useWithdrawUpload } from '../../../generated/hooks/uploads/uploads';
import type { ListUploadsParams, UploadListItem } from '../../../generated/hooks/model';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import { DeleteAction } from '../../components/ui/delete-action';
import { CongregationPicker } from '../../components/pickers/congregation-picker';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { invalidateAnswerSheetsAndFiles } from '../../lib/queries';
import { formatDateTime } from '../../lib/format';
import { countsText, kindLabel } from './upload-report';

export const UPLOADS_EMPTY_MESSAGE = 'There are no uploads to display';

/** The search param naming the congregation (spec route table: "search param groupId"). */
const UPLOAD_FILTERS = ['groupId'] as const;

const baseColumns: ListColumn<UploadListItem>[] = [
  { id: 'name', header: 'Name', sortKey: 'name', cell: (u) => <Link to={paths.upload(u.id)}>{u.name}</Link> },
  { id: 'created-at', header: 'Create Time', sortKey: 'created_at', cell: (u) => formatDateTime(u.created_at) },
  { id: 'kind', header: 'Kind', cell: kindLabel },
  { id: 'pages', header: 'Pages', cell: (u) => (u.process_status === 'pending' ? 'Reading…' : countsText(u.summary)) },
];

export default function UploadsList() {
  const list = useListState({ filters: UPLOAD_FILTERS });
  const params: ListUploadsParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.groupId && { group_id: list.filters.groupId }),
    ...(list.order_by && { order_by: list.order_by as ListUploadsParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const uploads = useListUploads(params);
  const admin = isScanningAdmin(useCurrentUser());
  const queryClient = useQueryClient();
  const withdraw = useWithdrawUpload();
  const columns: ListColumn<UploadListItem>[] = [
    ...baseColumns,
    {
      id: 'actions',
      header: '',
      // A graded upload sent by mistake is withdrawn (an admin's or its coordinator's); a service
      // center's file is deleted on its own page.
      cell: (u) =>
        u.kind !== 'graded' || u.process_status === 'pending' ? null : (
          <DeleteAction
            what="upload"
            verb="Withdraw"
            name={u.name}
            question={withdrawQuestion(u.name)}
            run={() => withdraw.mutateAsync({ id: u.id })}
            onDone={() => {
              void queryClient.invalidateQueries({ queryKey: getListUploadsQueryKey() });
              // Its files' grading changed (graded counts, a file back at Grading).
              void invalidateAnswerSheetsAndFiles(queryClient);
            }}
          />
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title={routes.uploads.title}
        actions={
          admin && (
            <FilterPanel activeCount={list.filters.groupId ? 1 : 0} onClear={list.clearFilters}>
              <CongregationPicker value={list.filters.groupId} onChange={(id) => list.setFilter('groupId', id)} />
            </FilterPanel>
          )
        }
      />
      <PagedList
        label="Uploads"
        columns={columns}
        query={uploads}
        list={list}
        rowKey={(u) => u.id}
        rowHref={(u) => paths.upload(u.id)}
        emptyMessage={UPLOADS_EMPTY_MESSAGE}
      />
    </>
  );
}
