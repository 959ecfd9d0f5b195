// Ready to Print (spec §2 "/files/" with mode=print, §9): the congregation's unprinted files
// (congregation_file_state=unprinted, skip 0, limit 10), each with Print/Download.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { File, ListFilesParams } from '../../../generated/hooks/model';
import { DEFAULT_PAGE_SIZE } from '../../../machines/constants';
import { ListTable, type ListColumn } from '../../components/list/list-table';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { PrintPacketButton } from './print-packet-button';
import { fileQueries } from '../../lib/queries';

export const READY_TO_PRINT_EMPTY_MESSAGE = 'There are no files ready to print';

export const READY_TO_PRINT_PARAMS: ListFilesParams = {
  congregation_file_state: 'unprinted',
  skip: 0,
  limit: DEFAULT_PAGE_SIZE,
};

const columns: ListColumn<File>[] = [
  { id: 'name', header: 'Name', cell: (file) => <Link to={paths.file(file.id)}>{file.name}</Link> },
  { id: 'sent', header: 'Sent', cell: (file) => formatDate(file.sent_at ?? undefined) || '—' },
  { id: 'responses', header: 'Responses', cell: (file) => file.responses_count },
  { id: 'print', header: 'Print', cell: (file) => <PrintPacketButton file={file} /> },
];

export function ReadyToPrintList({ title }: { title: string }) {
  const files = useQuery(fileQueries.list(READY_TO_PRINT_PARAMS));
  return (
    <>
      <PageHeader title={title} />
      <ListTable
        label={title}
        columns={columns}
        rows={files.data?.items}
        rowKey={(file) => file.id}
        emptyMessage={READY_TO_PRINT_EMPTY_MESSAGE}
        loading={files.isLoading}
        error={files.error}
        onRetry={() => void files.refetch()}
      />
    </>
  );
}
