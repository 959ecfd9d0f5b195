// /admin/congregations/{group_id}/emails (the Emails tile): the addresses the congregation is
// told at when a packet is ready and reminded at while it waits. Admins and the congregation's
// own coordinator add (a dialog that checks the address) and delete them (the spec's confirm).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import {
  getListCongregationEmailsQueryKey,
  useDeleteCongregationEmail,
  useListCongregationEmails,
} from '../../../generated/hooks/congregations/congregations';
import type { CongregationEmail } from '../../../generated/hooks/model';
import { ListTable, type ListColumn } from '../../components/list/list-table';
import { DeleteAction } from '../../components/ui/delete-action';
import { routes } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { isRefused } from '../../lib/refusal';
import { AddEmailDialog } from './add-email-dialog';
import { CongregationPage, useGroupId } from './congregation-page';

export const CONGREGATION_EMAILS_EMPTY_MESSAGE = 'There are no e-mails to display';
export const EMAILS_NOTE = 'These addresses hear when a packet is ready to print, and once a week while one waits.';

export default function CongregationEmails() {
  const groupId = useGroupId();
  const [adding, setAdding] = useState(false);
  const emails = useListCongregationEmails(groupId);
  const remove = useDeleteCongregationEmail();
  const queryClient = useQueryClient();
  const columns: ListColumn<CongregationEmail>[] = [
    { id: 'email', header: 'E-mail', cell: (e) => e.email },
    { id: 'added', header: 'Added', cell: (e) => formatDate(e.created_at) },
    {
      id: 'actions',
      header: '',
      cell: (e) => (
        <DeleteAction
          what="e-mail"
          name={e.email}
          run={() => remove.mutateAsync({ id: groupId, emailId: e.id })}
          onDone={() => void queryClient.invalidateQueries({ queryKey: getListCongregationEmailsQueryKey(groupId) })}
        />
      ),
    },
  ];
  return (
    <CongregationPage
      groupId={groupId}
      current="emails"
      title={routes.congregationEmails.title}
      // A member (not its coordinator) is refused the list: nothing to add either.
      actions={isRefused(emails.error) ? undefined : <Button type="button" label="Add" icon="pi pi-plus" onClick={() => setAdding(true)} />}
    >
      <p>{EMAILS_NOTE}</p>
      <ListTable
        label="Emails"
        columns={columns}
        rows={emails.data}
        rowKey={(e) => e.id}
        emptyMessage={CONGREGATION_EMAILS_EMPTY_MESSAGE}
        loading={emails.isLoading}
        error={emails.error}
        onRetry={() => void emails.refetch()}
      />
      <AddEmailDialog groupId={groupId} visible={adding} onHide={() => setAdding(false)} />
    </CongregationPage>
  );
}
