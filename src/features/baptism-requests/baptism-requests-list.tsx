// /baptism-requests/ (spec §2): Student ID, Name, Service Center, Recruiter, Status, Request Date,
// newest first with paging in the address; "Add Baptism Request" opens the dialog, and a created
// request is announced with "Baptism request successfully created.", which fades after 5 s. An
// admin may delete a request made by mistake while it is pending (its responses are unflagged).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { getListBaptismRequestsQueryKey, useDeleteBaptismRequest, useListBaptismRequests } from '../../../generated/hooks/baptism/baptism';
import type { BaptismRequest } from '../../../generated/hooks/model';
import { BAPTISM_SUCCESS_FADE_MS } from '../../../machines/constants';
import { resultBannerMachine } from '../../../machines/result-banner/result-banner.machine';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import { ResultBanner } from '../../components/notifications/result-banner';
import '../../components/page-layout/page-layout.css';
import { DeleteAction } from '../../components/ui/delete-action';
import { PageHeader } from '../../components/ui/page-header';
import { paths, routes } from '../../config/paths';
import { isScanningAdmin, useCurrentUser } from '../../lib/auth';
import { formatDate } from '../../lib/format';
import { AddBaptismRequestDialog } from './add-baptism-request-dialog';
import {
  ADD_BAPTISM_REQUEST_TITLE,
  BAPTISM_REQUEST_CREATED,
  BAPTISM_REQUESTS_EMPTY_MESSAGE,
  baptismStatusLabel,
} from './baptism-request-messages';

const baseColumns: ListColumn<BaptismRequest>[] = [
  {
    id: 'student-id',
    header: 'Student ID',
    cell: (r) => <Link to={paths.student(r.student.id)}>{r.student.human_id}</Link>,
  },
  { id: 'name', header: 'Name', cell: (r) => r.student.name || '—' },
  { id: 'service-center', header: 'Service Center', cell: (r) => r.service_center?.name || '—' },
  { id: 'recruiter', header: 'Recruiter', cell: (r) => r.recruiter?.name || '—' },
  { id: 'status', header: 'Status', cell: (r) => baptismStatusLabel(r.latest_status?.status) },
  { id: 'requested-at', header: 'Request Date', cell: (r) => formatDate(r.requested_at) },
];

export default function BaptismRequestsList() {
  const list = useListState();
  const [adding, setAdding] = useState(false);
  const requests = useListBaptismRequests({ skip: list.skip, limit: list.limit });
  const admin = isScanningAdmin(useCurrentUser());
  const queryClient = useQueryClient();
  const remove = useDeleteBaptismRequest();
  const columns: ListColumn<BaptismRequest>[] = admin
    ? [
        ...baseColumns,
        {
          id: 'actions',
          header: '',
          cell: (r) =>
            r.latest_status?.status === 'pending' ? (
              <DeleteAction
                what="baptism request"
                name={String(r.student.human_id)}
                run={() => remove.mutateAsync({ id: r.id })}
                onDone={() => void queryClient.invalidateQueries({ queryKey: getListBaptismRequestsQueryKey() })}
              />
            ) : null,
        },
      ]
    : baseColumns;
  // This screen's own banner: the success message fades after BAPTISM_SUCCESS_FADE_MS.
  const created = useActorRef(resultBannerMachine, {
    input: { autoFadeMs: BAPTISM_SUCCESS_FADE_MS, successMessage: BAPTISM_REQUEST_CREATED },
  });

  return (
    <>
      <PageHeader
        title={routes.baptismRequests.title}
        actions={
          <Button type="button" label={ADD_BAPTISM_REQUEST_TITLE} icon="pi pi-plus" onClick={() => setAdding(true)} />
        }
      />
      <div className="screen-banner" aria-live="polite">
        <ResultBanner actor={created} />
      </div>
      <PagedList
        label="Baptism requests"
        columns={columns}
        query={requests}
        list={list}
        rowKey={(r) => r.id}
        rowHref={(r) => paths.student(r.student.id)}
        emptyMessage={BAPTISM_REQUESTS_EMPTY_MESSAGE}
      />
      <AddBaptismRequestDialog
        visible={adding}
        onHide={() => setAdding(false)}
        onCreated={() => created.send({ type: 'RESULT', result: { type: 'success' } })}
      />
    </>
  );
}
