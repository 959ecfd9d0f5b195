// Deleting a file (DELETE /api/file/{id}) after a confirmation; then the files list (mode=all).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { useDeleteFile } from '../../../generated/hooks/files/files';
import { paths } from '../../config/paths';
import { invalidateFile } from '../../lib/queries';

export const DELETE_FILE_QUESTION = 'Delete this file with all its responses and pages? This cannot be undone.';

export function DeleteFileDialog({ fileId, visible, onHide }: { fileId: string; visible: boolean; onHide: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeleteFile();
  const confirm = () =>
    remove.mutate(
      { fileId },
      {
        onSuccess: () => {
          void invalidateFile(queryClient, fileId);
          navigate(paths.files('all'));
        },
        onError: (error) => console.error('delete file:', error),
      },
    );
  return (
    <Dialog
      header="Delete File"
      visible={visible}
      onHide={onHide}
      modal
      className="form-dialog"
      footer={
        <div className="form-actions">
          <Button type="button" label="Cancel" outlined onClick={onHide} />
          <Button type="button" label="Delete" severity="danger" loading={remove.isPending} onClick={confirm} />
        </div>
      }
    >
      <p>{DELETE_FILE_QUESTION}</p>
      {remove.isError && <Message severity="error" text="The file could not be deleted." />}
    </Dialog>
  );
}
