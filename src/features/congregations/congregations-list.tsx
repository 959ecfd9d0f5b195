// /admin/congregations/ (spec §2): WBS code and display name, each row linking to the
// congregation's files, a WBS code search, the "Add A New Congregation" dialog, and deleting a
// congregation made by mistake (the server refuses one in use, and says why).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import {
  getListCongregationsQueryKey,
  useDeleteCongregation,
  useListCongregations,
} from '../../../generated/hooks/congregations/congregations';
import type { Congregation, ListCongregationsParams } from '../../../generated/hooks/model';
import { FilterPanel } from '../../components/list/filter-panel';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { TextFilter } from '../../components/list/text-filter';
import { useListState } from '../../components/list/use-list-state';
import { DeleteAction } from '../../components/ui/delete-action';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { ADD_CONGREGATION_TITLE, AddCongregationDialog } from './add-congregation-dialog';

export const CONGREGATIONS_EMPTY_MESSAGE = 'There are no congregations to display';

const CONGREGATION_FILTERS = ['wbsCode'] as const;

const baseColumns: ListColumn<Congregation>[] = [
  {
    id: 'wbs-code',
    header: 'WBS Code',
    sortKey: 'wbs_code',
    cell: (c) => <Link to={paths.congregationFiles(c.id)}>{c.wbs_code}</Link>,
  },
  { id: 'display-name', header: 'Display Name', sortKey: 'display_name', cell: (c) => c.display_name },
];

export default function CongregationsList() {
  const list = useListState({ filters: CONGREGATION_FILTERS });
  const [adding, setAdding] = useState(false);
  const params: ListCongregationsParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.filters.wbsCode && { wbs_code: list.filters.wbsCode }),
    ...(list.order_by && { order_by: list.order_by as ListCongregationsParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const congregations = useListCongregations(params);
  const queryClient = useQueryClient();
  const remove = useDeleteCongregation();
  const columns: ListColumn<Congregation>[] = [
    ...baseColumns,
    {
      id: 'actions',
      header: '',
      cell: (c) => (
        <DeleteAction
          what="congregation"
          name={c.wbs_code}
          run={() => remove.mutateAsync({ id: c.id })}
          onDone={() => void queryClient.invalidateQueries({ queryKey: getListCongregationsQueryKey() })}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Congregations"
        actions={
          <>
            <Button type="button" label={ADD_CONGREGATION_TITLE} icon="pi pi-plus" onClick={() => setAdding(true)} />
            <FilterPanel activeCount={list.filters.wbsCode ? 1 : 0} onClear={list.clearFilters}>
              <TextFilter
                label="WBS Code"
                value={list.filters.wbsCode}
                onChange={(value) => list.setFilter('wbsCode', value, { replace: true })}
              />
            </FilterPanel>
          </>
        }
      />
      <PagedList
        label="Congregations"
        columns={columns}
        query={congregations}
        list={list}
        rowKey={(c) => c.id}
        rowHref={(c) => paths.congregationFiles(c.id)}
        emptyMessage={CONGREGATIONS_EMPTY_MESSAGE}
      />
      <AddCongregationDialog visible={adding} onHide={() => setAdding(false)} />
    </>
  );
}
