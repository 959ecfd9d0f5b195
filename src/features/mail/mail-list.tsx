// /admin/mail: every e-mail the portal sent or tried to send, newest first, with its status and
// why it failed (or "not sent: no mail server set" while SMTP_URL is not set), paged.
import { useListMailMessages } from '../../../generated/hooks/mail/mail';
import type { MailMessage } from '../../../generated/hooks/model';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import { PageHeader } from '../../components/ui/page-header';
import { routes } from '../../config/paths';
import { formatDateTime } from '../../lib/format';

export const MAIL_EMPTY_MESSAGE = 'There are no e-mails to display';

/** Each status as the record reads it. */
export const MAIL_STATUS_LABELS: Record<MailMessage['status'], string> = {
  queued: 'Waiting',
  sent: 'Sent',
  failed: 'Failed',
  not_sent: 'Not sent',
};

const columns: ListColumn<MailMessage>[] = [
  { id: 'to', header: 'To', cell: (m) => m.to },
  { id: 'subject', header: 'Subject', cell: (m) => m.subject },
  { id: 'queued', header: 'Queued', cell: (m) => formatDateTime(m.created_at) },
  { id: 'status', header: 'Status', cell: (m) => MAIL_STATUS_LABELS[m.status] },
  { id: 'sent', header: 'Sent', cell: (m) => formatDateTime(m.sent_at) || '—' },
  { id: 'tries', header: 'Tries', cell: (m) => m.attempts },
  { id: 'error', header: 'Error', cell: (m) => m.error ?? '' },
];

export default function MailList() {
  const list = useListState({ filters: [] as const });
  const messages = useListMailMessages({ skip: list.skip, limit: list.limit });
  return (
    <>
      <PageHeader title={routes.mail.title} subtitle="What the portal e-mailed, and what failed" />
      <PagedList
        label="Mail"
        columns={columns}
        query={messages}
        list={list}
        rowKey={(m) => m.id}
        emptyMessage={MAIL_EMPTY_MESSAGE}
      />
    </>
  );
}
