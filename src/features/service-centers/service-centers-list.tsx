// /admin/service-centers/ (spec §2): the service centers (name, country, location, created), a
// name filter, sorting and paging in the address, and the "Add a Service Center" dialog.
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { useListServiceCenters } from '../../../generated/hooks/service-centers/service-centers';
import type { ListServiceCentersParams, ServiceCenter } from '../../../generated/hooks/model';
import { CountryFlag } from '../../components/list/country-flag';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { ADD_SERVICE_CENTER_TITLE, AddServiceCenterDialog } from './add-service-center-dialog';

export const SERVICE_CENTERS_EMPTY_MESSAGE = 'There are no service centers to display';

const SERVICE_CENTER_FILTERS = ['name'] as const;

const columns: ListColumn<ServiceCenter>[] = [
  {
    id: 'name',
    header: 'Name',
    sortKey: 'name',
    cell: (sc) => <Link to={paths.serviceCenter(sc.id)}>{sc.name}</Link>,
  },
  {
    id: 'country',
    header: 'Country',
    cell: (sc) => (
      <span className="picker-option">
        <CountryFlag iso_code={sc.country.iso_code} display_name={sc.country.display_name} />
        <span>{sc.country.display_name}</span>
      </span>
    ),
  },
  { id: 'location', header: 'Location', cell: (sc) => sc.location || '—' },
  { id: 'created-at', header: 'Created', sortKey: 'created_at', cell: (sc) => formatDate(sc.created_at) },
];

export default function ServiceCentersList() {
  // The server lists by name unless told otherwise; the Name column shows that.
  const list = useListState({ filters: SERVICE_CENTER_FILTERS, orderBy: 'name', orderDirection: 'asc' });
  const [adding, setAdding] = useState(false);
  const params: ListServiceCentersParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.name && { name: list.filters.name }),
    ...(list.order_by && { order_by: list.order_by as ListServiceCentersParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const centers = useListServiceCenters(params);

  return (
    <>
      <PageHeader
        title={routes.serviceCenters.title}
        actions={
          <>
            <Button type="button" label={ADD_SERVICE_CENTER_TITLE} icon="pi pi-plus" onClick={() => setAdding(true)} />
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
        label="Service Centers"
        columns={columns}
        query={centers}
        list={list}
        rowKey={(sc) => sc.id}
        rowHref={(sc) => paths.serviceCenter(sc.id)}
        emptyMessage={SERVICE_CENTERS_EMPTY_MESSAGE}
      />
      <AddServiceCenterDialog visible={adding} onHide={() => setAdding(false)} />
    </>
  );
}
