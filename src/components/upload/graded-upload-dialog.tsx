// The congregation dashboard's upload (spec §2 "/files/", §4 "Upload dialog (study-helper
// file)", §5): first "Is this an intro file?", then the upload step; an intro file needs a chosen
// study helper of the congregation; one resumable upload per file (tus).
import { useCallback, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { StudyHelperPicker } from '../pickers/study-helper-picker';
import { useCurrentUser } from '../../lib/auth';
import { invalidateAfterGradedUpload } from '../../lib/queries';
import { UploadDialogView } from './upload-dialog-view';
import { useUploadDialog } from './use-upload-dialog';

export interface GradedUploadDialogProps {
  visible: boolean;
  onHide: () => void;
}

export default function GradedUploadDialog({ visible, onHide }: GradedUploadDialogProps) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const onSuccess = useCallback(() => {
    void invalidateAfterGradedUpload(queryClient);
  }, [queryClient]);
  const { snapshot, send } = useUploadDialog({ variant: 'study_helper', onSuccess });
  const closed = snapshot.matches('closed');

  // The parent's `visible` opens and closes the machine; the machine closing hides the parent's.
  useEffect(() => {
    if (visible && closed) send({ type: 'OPEN' });
    // Only a change of `visible` opens it: a dialog closed from inside stays closed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible]);
  useEffect(() => {
    if (!visible && !closed) send({ type: 'CLOSE' });
  }, [visible, closed, send]);

  return (
    <UploadDialogView
      snapshot={snapshot}
      send={(event) => {
        // A cancel during an upload stays open to say that nothing was stored.
        const uploading = snapshot.matches({ open: 'uploading' });
        send(event);
        if (event.type === 'CLOSE' || (event.type === 'CANCEL' && !uploading)) onHide();
      }}
      studyHelperPicker={
        <StudyHelperPicker
          label="Study Helper"
          placeholder="Choose a study helper"
          className="form-field"
          congregationId={user.congregation || undefined}
          value={snapshot.context.studyHelperId ?? undefined}
          onChange={(studyHelperId) => send({ type: 'SELECT_STUDY_HELPER', studyHelperId: studyHelperId ?? null })}
        />
      }
    />
  );
}
