// A coordinator's files (spec §2 "/files/", §4 "Congregation file states"): the congregation's
// files with their congregation file state, newest first, paged; a sent file's packet can be
// printed (again) from here until the file is archived.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { File, ListFilesParams } from '../../../generated/hooks/model';
import type { ListColumn } from '../../components/list/list-table';
import { PagedList } from '../../components/list/paged-list';
import { useListState } from '../../components/list/use-list-state';
import { LinkButton } from '../../components/ui/link-button';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { formatDate } from '../../lib/format';
import { FILES_DEFAULT_SORT, FILES_EMPTY_MESSAGE } from './files-table';
import { CongregationFileStateTag } from './file-status-badge';
import { offersPacket, PrintPacketButton } from './print-packet-button';
import { fileQueries } from '../../lib/queries';

const columns: ListColumn<File>[] = [
  { id: 'name', header: 'Name', sortKey: 'name', cell: (file) => <Link to={paths.file(file.id)}>{file.name}</Link> },
  // On a phone the name, status and Print stay; the date and count give way.
  { id: 'uploaded', header: 'Uploaded', sortKey: 'created_at', cell: (file) => formatDate(file.created_at ?? file.uploaded_at), className: 'list-col-secondary' },
  { id: 'responses', header: 'Responses', cell: (file) => file.responses_count, className: 'list-col-secondary' },
  { id: 'status', header: 'Status', cell: (file) => <CongregationFileStateTag file={file} /> },
  // "Print again" until the file is archived (Ready to Print lists only the unprinted).
  { id: 'print', header: 'Print', cell: (file) => (offersPacket(file) ? <PrintPacketButton file={file} /> : null) },
];

export function CongregationFilesTable({ title }: { title: string }) {
  const list = useListState({ ...FILES_DEFAULT_SORT });
  const params: ListFilesParams = {
    skip: list.skip,
    limit: list.limit,
    ...(list.order_by && { order_by: list.order_by as ListFilesParams['order_by'] }),
    ...(list.order_direction && { order_direction: list.order_direction }),
  };
  const files = useQuery(fileQueries.list(params));
  return (
    <>
      <PageHeader title={title} actions={<LinkButton to={paths.uploads()} icon="pi-inbox" label="Uploads" />} />
      <PagedList
        label="Files"
        columns={columns}
        query={files}
        list={list}
        rowKey={(file) => file.id}
        rowHref={(file) => paths.file(file.id)}
        emptyMessage={FILES_EMPTY_MESSAGE}
      />
    </>
  );
}
