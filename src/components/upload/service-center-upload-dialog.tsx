// The admin's upload of a service center's scanned file (spec §2 "/files/", §5, §8): an Upload
// button opening the service-center upload dialog; page length 0, 1 or 2; one resumable upload per
// file (tus, /api/uploads/resumable). The dialog stays to show the file's processing and its end summary; closing it after the
// upload goes to /file/{id}.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Button } from 'primereact/button';
import { paths } from '../../config/paths';
import { UploadDialogView } from './upload-dialog-view';
import { useUploadDialog } from './use-upload-dialog';

export function ServiceCenterUploadButton() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onSuccess = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['/api/files'] });
  }, [queryClient]);
  const { snapshot, send } = useUploadDialog({ variant: 'service_center', onSuccess });
  const uploaded = snapshot.context.uploadedFileIds[0];
  const afterUpload = ['processing', 'success', 'warning'].some((state) => snapshot.matches({ open: state as 'success' }));
  return (
    <>
      <Button type="button" label="Upload" icon="pi pi-upload" onClick={() => send({ type: 'OPEN' })} />
      <UploadDialogView
        snapshot={snapshot}
        send={(event) => {
          send(event);
          // The uploaded file is where the work goes on (spec: a successful upload goes to it).
          if (event.type === 'CLOSE' && afterUpload && uploaded) navigate(paths.file(uploaded));
        }}
      />
    </>
  );
}
