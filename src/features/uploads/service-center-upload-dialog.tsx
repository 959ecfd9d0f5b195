// The admin's upload of a service center's scanned file (spec §2 "/files/", §5, §8): an Upload
// button opening the service-center upload dialog; page length 0, 1 or 2; one POST /api/file per
// file; a successful upload goes to /file/{id}.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Button } from 'primereact/button';
import { paths } from '../../config/paths';
import { UploadDialogView } from './upload-dialog-view';
import { uploadServiceCenterFile } from './upload-requests';
import { useUploadDialog } from './use-upload-dialog';

export function ServiceCenterUploadButton() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onSuccess = useCallback(
    (fileIds: readonly string[]) => {
      void queryClient.invalidateQueries({ queryKey: ['/api/files'] });
      const first = fileIds[0];
      if (first) navigate(paths.file(first));
    },
    [navigate, queryClient],
  );
  const { snapshot, send } = useUploadDialog({ variant: 'service_center', uploadFile: uploadServiceCenterFile, onSuccess });
  return (
    <>
      <Button type="button" label="Upload" icon="pi pi-upload" onClick={() => send({ type: 'OPEN' })} />
      <UploadDialogView snapshot={snapshot} send={send} />
    </>
  );
}
