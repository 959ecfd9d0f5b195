// Runs one upload-dialog machine for a screen: the machine decides (steps, the size rule, which
// files go, the error type, success or warning); this hook supplies the `uploadFile` and
// `followProcessing` actors and reports the outcome once per finished upload: the result banner
// (spec §8) for success and failure, a warning notification with the counts otherwise.
import { useEffect, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { uploadDialogMachine } from '../../../machines/upload-dialog/upload-dialog.machine';
import type {
  EarlierUpload,
  UploadTargetInput,
  FollowProcessingInput,
  ProcessingReport,
  UploadFileInput,
  UploadFileOutput,
  UploadPhotosInput,
  UploadVariant,
} from '../../../machines/upload-dialog/upload-dialog.types';
import { useNotifications, useResultBanner } from '../notifications/notifications-context';
import { followProcessing } from './upload-processing';
import { cancelUpload, findEarlierUpload, resumableUploadFile } from './resumable-upload';
import { uploadPhotos } from './upload-requests';

/**
 * What the file picker offers and dropped files are filtered by: a PDF or photos of pages. HEIC is
 * named by extension too, as some browsers give it no type.
 */
export const UPLOAD_ACCEPTED_TYPES = 'application/pdf,image/*,.heic,.heif';
/** What the camera button takes: photos only (a phone opens its camera for it). */
export const CAMERA_ACCEPTED_TYPES = 'image/*';

export type UploadDialogSnapshot = SnapshotFrom<typeof uploadDialogMachine>;

export interface UseUploadDialogOptions {
  variant: UploadVariant;
  /** Called once when every file was uploaded and processed (success or warning), with the created ids. */
  onSuccess?: (fileIds: readonly string[]) => void;
}

/** The one-line summary of a report: "4 pages read, 3 matched, 1 not matched". */
export function reportSummary(report: ProcessingReport): string {
  return report.counts.map((item) => `${item.count} ${item.label}`).join(', ');
}

/** The warning shown when processing found problems. */
export function warningText(report: ProcessingReport): string {
  return [`Uploaded, but not everything went through: ${reportSummary(report)}.`, report.nextStep].filter(Boolean).join(' ');
}

export function useUploadDialog({ variant, onSuccess }: UseUploadDialogOptions) {
  const succeeded = useRef(onSuccess);
  useEffect(() => {
    succeeded.current = onSuccess;
  }, [onSuccess]);

  const actor = useActorRef(
    uploadDialogMachine.provide({
      actors: {
        uploadFile: fromPromise<UploadFileOutput, UploadFileInput>(({ input, signal }) => resumableUploadFile(input, signal)),
        findEarlierUpload: fromPromise<EarlierUpload | null, UploadTargetInput>(({ input }) => findEarlierUpload(input)),
        cancelUpload: fromPromise<void, UploadTargetInput>(({ input }) => cancelUpload(input)),
        uploadPhotos: fromPromise<UploadFileOutput, UploadPhotosInput>(({ input, signal }) => uploadPhotos(input, signal)),
        followProcessing: fromPromise<ProcessingReport, FollowProcessingInput>(({ input, signal }) => followProcessing(input, signal)),
      },
    }),
    { input: { variant, acceptedTypes: UPLOAD_ACCEPTED_TYPES } },
  );
  const snapshot = useSelector(actor, (state) => state);
  const banner = useResultBanner();
  const notifications = useNotifications();

  // Report each finished upload once, when the machine enters success or failed.
  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((state) => {
      const before = previous;
      previous = state;
      if (state.matches({ open: 'success' }) && !before.matches({ open: 'success' })) {
        banner.show({ type: 'success' });
        succeeded.current?.(state.context.uploadedFileIds);
      } else if (state.matches({ open: 'warning' }) && !before.matches({ open: 'warning' })) {
        // A success banner of an earlier upload must not stand beside this warning.
        banner.dismiss();
        if (state.context.report) notifications.notify(warningText(state.context.report), { severity: 'warn' });
        succeeded.current?.(state.context.uploadedFileIds);
      } else if (state.matches({ open: 'failed' }) && !before.matches({ open: 'failed' })) {
        banner.show({ type: 'error', errorType: state.context.errorType ?? undefined });
      }
    });
    return () => subscription.unsubscribe();
    // The banner's functions are stable enough: they only send to the app's banner actor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor]);

  return { actor, snapshot, send: actor.send };
}
