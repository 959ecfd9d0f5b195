// Taking a file sent by mistake back to the Send step (DELETE /api/file/{id}/send): offered to an
// admin at the Grading step while no packet was printed. The server also refuses once a graded
// scan came back, and says why; the workflow then loads its steps again.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useRecallFile } from '../../../generated/hooks/files/files';
import { useNotifications } from '../../components/notifications/notifications-context';
import { refusalMessage } from '../../lib/refusal';
import { invalidateFile } from '../../lib/queries';

export const TAKE_BACK_QUESTION = 'Take this file back to the Send step? Its packets are deleted; you can send it again.';
export const TAKEN_BACK = 'The file is back at the Send step.';

export function TakeBackFile({ fileId, onTakenBack }: { fileId: string; onTakenBack: () => void }) {
  const [asking, setAsking] = useState(false);
  const queryClient = useQueryClient();
  const { notify } = useNotifications();
  const recall = useRecallFile();
  const accept = () =>
    recall.mutate(
      { fileId },
      {
        onSuccess: () => {
          notify(TAKEN_BACK, { severity: 'success' });
          void invalidateFile(queryClient, fileId);
          onTakenBack();
        },
        onError: (error) => notify(refusalMessage(error, 'The file could not be taken back. Please try again.'), { severity: 'error' }),
      },
    );
  return (
    <>
      <Button type="button" label="Take Back" icon="pi pi-undo" severity="secondary" outlined loading={recall.isPending} onClick={() => setAsking(true)} />
      <ConfirmDialog
        visible={asking}
        onHide={() => setAsking(false)}
        header="Take Back"
        message={TAKE_BACK_QUESTION}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Take Back"
        rejectLabel="Cancel"
        accept={accept}
      />
    </>
  );
}
