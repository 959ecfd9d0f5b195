// Print/Download of a file's packet for the user's congregation (spec §7 "Study helpers"):
// the packet id comes from GET /api/file/{id}/congregations; GET
// /api/study-helpers/distributed-files/{id}/exists is repolled each second until true; then the
// button downloads /api/study-helpers/distributed-files/{id}.pdf. A packet stays downloadable
// until its file is archived (a jam or a lost download must not strand the coordinator): once
// printed, the same button reads "Print again".
import { useState } from 'react';
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { getDownloadPacketUrl, useGetPacketExists } from '../../../generated/hooks/study-helpers/study-helpers';
import type { File, FileCongregation } from '../../../generated/hooks/model';
import { PACKET_POLL_MS } from '../../../machines/constants';
import { downloadPdf } from '../../lib/api-client';
import { useCurrentUser } from '../../lib/auth';
import { fileQueries, invalidateFilesAndCongregations } from '../../lib/queries';

export const PRINT_DOWNLOAD_LABEL = 'Print/Download';
export const PRINT_AGAIN_LABEL = 'Print again';

/** The packet is offered from sending until the file is archived. */
export function offersPacket(file: Pick<File, 'sent_at' | 'file_status'>): boolean {
  return file.sent_at !== null && file.file_status !== 'archived';
}

/** The first download marks the file printed for the congregation; after it, "Print again". */
export function printLabel(file: Pick<File, 'congregation_file_status' | 'printed'>): string {
  const printed = file.congregation_file_status ? file.congregation_file_status !== 'unprinted' : file.printed;
  return printed ? PRINT_AGAIN_LABEL : PRINT_DOWNLOAD_LABEL;
}

/**
 * The packets to print: the user's congregation's; for someone outside the file's congregations
 * (an admin), every congregation's packet, each its own PDF.
 */
export function packetsFor(congregations: readonly FileCongregation[], congregationId: string): string[] {
  const own = congregations.find((c) => c.id === congregationId);
  if (own) return own.packet_id ? [own.packet_id] : [];
  return congregations.flatMap((c) => (c.packet_id ? [c.packet_id] : []));
}

export function PrintPacketButton({ file }: { file: File }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const congregations = useQuery(fileQueries.congregations(file.id));
  const packetIds = congregations.data ? packetsFor(congregations.data, user.congregation) : [];
  // One send job makes every packet of a file: the first being there means they all are.
  const packetId = packetIds[0] ?? null;
  const exists = useGetPacketExists(packetId ?? '', {
    query: {
      enabled: packetId !== null,
      refetchInterval: (query) => (query.state.data?.exists ? false : PACKET_POLL_MS),
    },
  });
  const [downloading, setDownloading] = useState(false);
  const ready = exists.data?.exists === true;
  const label = printLabel(file);

  const download = async () => {
    if (packetIds.length === 0) return;
    setDownloading(true);
    try {
      for (const id of packetIds) await downloadPdf(getDownloadPacketUrl(id), id);
      // Downloading marks the file printed for the congregation.
      void invalidateFilesAndCongregations(queryClient);
    } catch (error) {
      // Spec §7: only the spinner stops and the error is logged.
      console.error(error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Button
      type="button"
      label={label}
      icon="pi pi-print"
      size="small"
      aria-label={`${label} ${file.name}${packetIds.length > 1 ? ` (${packetIds.length} packets)` : ''}`}
      loading={downloading || (packetId !== null && !ready)}
      disabled={!ready || downloading}
      title={packetId === null && congregations.data ? 'No packet for this congregation yet' : undefined}
      onClick={() => void download()}
    />
  );
}
