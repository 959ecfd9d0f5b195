// The admin's all-files table (spec §2 "/files/", §4, §9): status icon, filters study helper,
// status (file_state), country and name (query_name), sorting (created_at descending by default),
// paging, refetched every 2 s; and the service-center upload.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Dropdown } from 'primereact/dropdown';
import type { File, ListFilesParams } from '../../../generated/hooks/model';
import { ADMIN_FILES_REFETCH_MS } from '../../../machines/constants';
import { CountryFlag } from '../../components/list/country-flag';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { CountryPicker } from '../../components/pickers/country-picker';
import { StudyHelperPicker } from '../../components/pickers/study-helper-picker';
import { LinkButton } from '../../components/ui/link-button';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { ServiceCenterUploadButton } from '../../components/upload/service-center-upload-dialog';
import { AdminFileStatusIcon } from './file-status-badge';
import { FILE_STATE_FILTER_OPTIONS, isFileStateFilter } from './file-status';
import { FILES_DEFAULT_SORT, FILES_EMPTY_MESSAGE } from './files-table';
import { fileQueries } from '../../lib/queries';

/** The table's search params. */
const ADMIN_FILE_FILTERS = ['studyHelper', 'status', 'country', 'name'] as const;
type AdminFileFilter = (typeof ADMIN_FILE_FILTERS)[number];

const ORDER_BY = ['created_at', 'name', 'uploaded_at'] as const;
function isOrderBy(value: string | undefined): value is NonNullable<ListFilesParams['order_by']> {
  return (ORDER_BY as readonly (string | undefined)[]).includes(value);
}

const adminColumns: ListColumn<File>[] = [
  { id: 'status', header: 'Status', cell: (file) => <AdminFileStatusIcon file={file} />, className: 'file-status-cell' },
  { id: 'name', header: 'Name', sortKey: 'name', cell: (file) => <Link to={paths.file(file.id)}>{file.name}</Link> },
  {
    id: 'service-center',
    header: 'Service Center',
    cell: (file) =>
      file.service_center ? (
        <span className="picker-option">
          {file.service_center.country && (
            <CountryFlag iso_code={file.service_center.country.iso_code} display_name={file.service_center.country.display_name} />
          )}
          <span>{file.service_center.name}</span>
        </span>
      ) : (
        '—'
      ),
  },
  {
    id: 'congregations',
    header: 'Congregations',
    cell: (file) => file.congregations.map((c) => c.wbs_code).join(', ') || '—',
  },
  { id: 'responses', header: 'Responses', cell: (file) => file.responses_count },
  {
    id: 'uploaded',
    header: 'Uploaded',
    sortKey: 'created_at',
    cell: (file) => formatDate(file.created_at ?? file.uploaded_at),
  },
];

export function AdminFilesTable({ title }: { title: string }) {
  const list = useListState<AdminFileFilter>({ filters: ADMIN_FILE_FILTERS, ...FILES_DEFAULT_SORT });
  const { filters } = list;
  const params: ListFilesParams = {
    skip: list.skip,
    limit: list.limit,
    ...(isOrderBy(list.order_by) && { order_by: list.order_by }),
    ...(list.order_direction && { order_direction: list.order_direction }),
    ...(filters.studyHelper && { study_helper: filters.studyHelper }),
    ...(isFileStateFilter(filters.status) && { file_state: filters.status }),
    ...(filters.country && { country: filters.country }),
    ...(filters.name && { query_name: filters.name }),
  };
  const files = useQuery({ ...fileQueries.list(params), refetchInterval: ADMIN_FILES_REFETCH_MS });
  const activeFilters = ADMIN_FILE_FILTERS.filter((name) => filters[name]).length;

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <>
            <ServiceCenterUploadButton />
            <LinkButton to={paths.uploads()} icon="pi-inbox" label="Uploads" />
            <FilterPanel activeCount={activeFilters} onClear={list.clearFilters}>
              <StudyHelperPicker value={filters.studyHelper} onChange={(id) => list.setFilter('studyHelper', id)} />
              <div className="filter-field">
                <label htmlFor="files-status-filter">Status</label>
                <Dropdown
                  inputId="files-status-filter"
                  value={isFileStateFilter(filters.status) ? filters.status : null}
                  options={[...FILE_STATE_FILTER_OPTIONS]}
                  optionValue="value"
                  optionLabel="label"
                  showClear
                  placeholder="Any status"
                  onChange={(event) => list.setFilter('status', (event.value as string | null) ?? undefined)}
                />
              </div>
              <CountryPicker value={filters.country} onChange={(code) => list.setFilter('country', code)} />
              <TextFilter
                label="Name"
                value={filters.name}
                onChange={(value) => list.setFilter('name', value, { replace: true })}
              />
            </FilterPanel>
          </>
        }
      />
      <PagedList
        label="Files"
        columns={adminColumns}
        query={files}
        list={list}
        rowKey={(file) => file.id}
        rowHref={(file) => paths.file(file.id)}
        emptyMessage={FILES_EMPTY_MESSAGE}
      />
    </>
  );
}
