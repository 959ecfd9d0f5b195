// The uploading part of the upload dialog (open.uploading in the hierarchy of
// upload-dialog.machine.ts): PDFs one resumable upload each, photos in one request, then decide.
import { assign } from 'xstate';
import { uploadDialogSetup } from './upload-dialog.setup';
import type { FileLike, UploadProgress, UploadRetry } from './upload-dialog.types';

export const uploadingState = uploadDialogSetup.createStateConfig({
  initial: 'nextFile',
  // Not closed at once: the dialog says that nothing of the file was stored.
  on: { CANCEL: { target: '#uploadDialog.open.cancelled' } },
  states: {
    nextFile: {
      always: [
        { guard: 'allFilesHandled', target: '#uploadDialog.open.decide' },
        { guard: 'sendsPhotos', target: 'sendingPhotos', actions: 'startPhotos' },
        { guard: 'currentFileUnsendable', target: 'nextFile', reenter: true, actions: 'recordUnsendableFile' },
        { target: 'lookingForEarlier', actions: 'startFile' },
      ],
    },
    lookingForEarlier: {
      invoke: {
        id: 'findEarlierUpload',
        src: 'findEarlierUpload',
        input: ({ context }) => ({ variant: context.variant, file: context.files[context.currentIndex] as FileLike }),
        onDone: [
          {
            guard: { type: 'foundEarlier', params: ({ event }) => ({ earlier: event.output }) },
            target: 'offeringToContinue',
            actions: { type: 'keepEarlier', params: ({ event }) => ({ earlier: event.output }) },
          },
          { target: 'sending' },
        ],
        // Not knowing of an earlier upload only means starting this one afresh.
        onError: { target: 'sending' },
      },
    },
    offeringToContinue: {
      on: {
        CONTINUE_EARLIER: { target: 'sending', actions: 'continueEarlier' },
        START_OVER: { target: 'sending', actions: 'startOver' },
      },
    },
    sending: {
      initial: 'transferring',
      on: {
        UPLOAD_PROGRESS: { target: '.transferring', actions: 'countBytes' },
        // The upload exists on the server by now: a resume continues it, never starts over.
        PAUSE: { target: 'paused', actions: assign({ startOver: false }) },
      },
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context, self }) => ({
          variant: context.variant,
          file: context.files[context.currentIndex] as FileLike,
          answerSheetPageLength: context.answerSheetPageLength,
          isIntro: context.isIntro,
          studyHelperId: context.isIntro ? context.studyHelperId : null,
          startOver: context.startOver,
          onProgress: (progress: UploadProgress) => self.send({ type: 'UPLOAD_PROGRESS', ...progress }),
          onRetry: (retry: UploadRetry) => self.send({ type: 'UPLOAD_RETRYING', ...retry }),
        }),
        onDone: {
          target: 'nextFile',
          actions: { type: 'recordUploaded', params: ({ event }) => ({ output: event.output }) },
        },
        onError: {
          target: 'nextFile',
          actions: { type: 'recordFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
      states: {
        transferring: {
          on: { UPLOAD_RETRYING: { target: 'waitingToRetry', actions: 'keepRetry' } },
        },
        waitingToRetry: {
          on: { UPLOAD_RETRYING: { actions: 'keepRetry' } },
        },
      },
    },
    paused: {
      entry: 'restartRate',
      on: { RESUME: { target: 'sending' } },
    },
    sendingPhotos: {
      initial: 'transferring',
      on: { UPLOAD_PROGRESS: { target: '.transferring', actions: 'countBytes' } },
      invoke: {
        id: 'uploadPhotos',
        src: 'uploadPhotos',
        input: ({ context, self }) => ({
          variant: context.variant,
          photos: context.files,
          answerSheetPageLength: context.answerSheetPageLength,
          isIntro: context.isIntro,
          studyHelperId: context.isIntro ? context.studyHelperId : null,
          onProgress: (progress: UploadProgress) => self.send({ type: 'UPLOAD_PROGRESS', ...progress }),
          onRetry: (retry: UploadRetry) => self.send({ type: 'UPLOAD_RETRYING', ...retry }),
        }),
        onDone: {
          target: 'nextFile',
          actions: { type: 'recordPhotosUploaded', params: ({ event }) => ({ output: event.output }) },
        },
        onError: {
          target: 'nextFile',
          actions: { type: 'recordPhotosFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
      states: {
        transferring: {
          on: { UPLOAD_RETRYING: { target: 'waitingToRetry', actions: ['keepRetry', 'countFromZero'] } },
        },
        waitingToRetry: {
          on: { UPLOAD_RETRYING: { actions: 'keepRetry' } },
        },
      },
    },
  },
});
