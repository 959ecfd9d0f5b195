// Print/Download of a file's packet for the user's congregation (spec §7 "Study helpers"):
// the packet id comes from GET /api/file/{id}/congregations; GET
// /api/study-helpers/distributed-files/{id}/exists is repolled each second until true; then the
// button downloads /api/study-helpers/distributed-files/{id}.pdf. A packet stays downloadable
// until its file is archived (a jam or a lost download must not strand the coordinator): once
// printed, the same button reads "Print again".
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { useListFileCongregations } from '../../../generated/hooks/files/files';
import {
  getDownloadPacketUrl,
  useGetPacketExists,
} from '../../../generated/hooks/study-helpers/study-helpers';
import type { File, FileCongregation } from '../../../generated/hooks/model';
import { PACKET_POLL_MS } from '../../../machines/constants';
import { downloadPdf } from '../../lib/api-client';
import { useCurrentUser } from '../../lib/auth';

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

/** The packet to print: the user's congregation's, else the first that has one. */
export function packetFor(congregations: readonly FileCongregation[], congregationId: string): string | null {
  const own = congregations.find((c) => c.id === congregationId);
  if (own) return own.packet_id ?? null;
  return congregations.find((c) => c.packet_id)?.packet_id ?? null;
}

export function PrintPacketButton({ file }: { file: File }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const congregations = useListFileCongregations(file.id);
  const packetId = congregations.data ? packetFor(congregations.data, user.congregation) : null;
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
    if (!packetId) return;
    setDownloading(true);
    try {
      await downloadPdf(getDownloadPacketUrl(packetId), packetId);
      // Downloading marks the file printed for the congregation.
      void queryClient.invalidateQueries({ predicate: (q) => /^\/api\/(files|congregations)/.test(String(q.queryKey[0])) });
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
      aria-label={`${label} ${file.name}`}
      loading={downloading || (packetId !== null && !ready)}
      disabled={!ready || downloading}
      title={packetId === null && congregations.data ? 'No packet for this congregation yet' : undefined}
      onClick={() => void download()}
    />
  );
}
