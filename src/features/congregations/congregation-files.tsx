// /admin/congregations/{group_id}/files (spec §2): the files with answer sheets assigned to the
// congregation (GET /api/files?group_id), newest first by default (created_at descending, §9),
// sortable, filtered by name, paged; side links Files, Study Helpers and View As.
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Link, useNavigate } from 'react-router-dom';
import type { File, ListFilesParams } from '../../../generated/hooks/model';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { paths, routes } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { CongregationPage, useGroupId } from './congregation-page';
import { fileQueries } from '../../lib/queries';

export const CONGREGATION_FILES_EMPTY_MESSAGE = 'There are no files to display';

const FILE_FILTERS = ['name'] as const;

const columns: ListColumn<File>[] = [
  { id: 'name', header: 'Name', sortKey: 'name', cell: (f) => <Link to={paths.file(f.id)}>{f.name}</Link> },
  { id: 'service-center', header: 'Service Center', cell: (f) => f.service_center?.name || '—' },
  { id: 'responses', header: 'Responses', cell: (f) => f.responses_count },
  { id: 'uploaded-at', header: 'Uploaded', sortKey: 'uploaded_at', cell: (f) => formatDate(f.uploaded_at) },
  { id: 'created-at', header: 'Created', sortKey: 'created_at', cell: (f) => formatDate(f.created_at) || '—' },
];

export default function CongregationFiles() {
  const groupId = useGroupId();
  const navigate = useNavigate();
  const list = useListState({ filters: FILE_FILTERS, orderBy: 'created_at', orderDirection: 'desc' });
  const params: ListFilesParams = {
    group_id: groupId,
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.name && { query_name: list.filters.name }),
    ...(list.order_by && { order_by: list.order_by as ListFilesParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const files = useQuery(fileQueries.list(params));

  return (
    <CongregationPage
      groupId={groupId}
      current="files"
      title={routes.congregationFiles.title}
      actions={
        <>
          <Button
            type="button"
            label="Uploads"
            icon="pi pi-inbox"
            outlined
            onClick={() => navigate(paths.uploads({ groupId }))}
          />
          <FilterPanel activeCount={list.filters.name ? 1 : 0} onClear={list.clearFilters}>
            <TextFilter
              label="Name"
              value={list.filters.name}
              onChange={(value) => list.setFilter('name', value, { replace: true })}
            />
          </FilterPanel>
        </>
      }
    >
      <PagedList
        label="Files"
        columns={columns}
        query={files}
        list={list}
        rowKey={(f) => f.id}
        rowHref={(f) => paths.file(f.id)}
        emptyMessage={CONGREGATION_FILES_EMPTY_MESSAGE}
      />
    </CongregationPage>
  );
}
