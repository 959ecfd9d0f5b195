// The upload dialog's setup: its types, the actors the screen must provide, and its named
// actions and guards. The states that use them are in upload-dialog.machine.ts and
// upload-dialog.uploading.ts.
import { assign, fromPromise, setup } from 'xstate';
import {
  classifyUploadError,
  fileProblem,
  isAcceptedType,
  isPhoto,
  isPhotoSelection,
  summarizeUploadResults,
  refusalReason,
  photosLabel,
  canUpload,
  addPhotos,
  withoutPhoto,
  selectFiles,
  freshContext,
} from './upload-dialog.rules';
import type {
  UploadFileResult,
  UploadDialogInput,
  UploadDialogContext,
  ProcessingReport,
  UploadDialogEvent,
  EarlierUpload,
  UploadTargetInput,
  UploadFileInput,
  UploadPhotosInput,
  FollowProcessingInput,
  UploadFileOutput,
} from './upload-dialog.types';

export const uploadDialogSetup = setup({
  types: {
    input: {} as UploadDialogInput,
    context: {} as UploadDialogContext,
    events: {} as UploadDialogEvent,
  },
  actors: {
    uploadFile: fromPromise<UploadFileOutput, UploadFileInput>(async () => {
      throw new Error('upload-dialog machine: "uploadFile" must be supplied by the screen with .provide()');
    }),
    followProcessing: fromPromise<ProcessingReport, FollowProcessingInput>(async () => {
      throw new Error('upload-dialog machine: "followProcessing" must be supplied by the screen with .provide()');
    }),
    findEarlierUpload: fromPromise<EarlierUpload | null, UploadTargetInput>(async () => {
      throw new Error('upload-dialog machine: "findEarlierUpload" must be supplied by the screen with .provide()');
    }),
    cancelUpload: fromPromise<void, UploadTargetInput>(async () => {
      throw new Error('upload-dialog machine: "cancelUpload" must be supplied by the screen with .provide()');
    }),
    uploadPhotos: fromPromise<UploadFileOutput, UploadPhotosInput>(async () => {
      throw new Error('upload-dialog machine: "uploadPhotos" must be supplied by the screen with .provide()');
    }),
  },
  actions: {
    reset: assign(({ context }) => freshContext(context.variant, context.acceptedTypes)),
    answerIntro: assign(({ event }) =>
      event.type === 'ANSWER_INTRO' ? { isIntro: event.isIntro, studyHelperId: null } : {},
    ),
    selectStudyHelper: assign(({ event }) =>
      event.type === 'SELECT_STUDY_HELPER' ? { studyHelperId: event.studyHelperId } : {},
    ),
    setPageLength: assign(({ event }) =>
      event.type === 'SET_PAGE_LENGTH' ? { answerSheetPageLength: event.pageLength } : {},
    ),
    chooseFiles: assign(({ event }) => (event.type === 'CHOOSE_FILES' ? selectFiles(event.files) : {})),
    dropFiles: assign(({ context, event }) =>
      event.type === 'DROP_FILES'
        ? selectFiles(event.files.filter((file) => !file || isAcceptedType(file, context.acceptedTypes)))
        : {},
    ),
    addPhotos: assign(({ context, event }) => (event.type === 'ADD_PHOTOS' ? addPhotos(context, event.files) : {})),
    removePhoto: assign(({ context, event }) => (event.type === 'REMOVE_PHOTO' ? { files: withoutPhoto(context.files, event.index) } : {})),
    removeFile: assign(({ context, event }) =>
      event.type === 'REMOVE_FILE'
        ? {
            files: context.files.filter((file) => file.name !== event.name),
            tooLargeFiles: context.tooLargeFiles.filter((file) => file.name !== event.name),
          }
        : {},
    ),
    clearFiles: assign({ files: [], tooLargeFiles: [] }),
    startUploading: assign({ currentIndex: 0, results: [], uploadedFileIds: [], errorType: null, report: null }),
    startFile: assign(({ context }) => ({
      transfer: { loaded: 0, total: context.files[context.currentIndex]?.size ?? 0, startedAt: null, startLoaded: 0, at: null },
      earlier: null,
      startOver: false,
      retry: null,
    })),
    startPhotos: assign(({ context }) => ({
      transfer: { loaded: 0, total: context.files.reduce((sum, file) => sum + file.size, 0), startedAt: null, startLoaded: 0, at: null },
      earlier: null,
      startOver: false,
      retry: null,
    })),
    // Results are in the order of the files (one per PDF, one for all photos): those uploaded stay
    // uploaded, the rest are chosen again.
    keepFilesNotUploaded: assign(({ context }) => ({
      files: isPhotoSelection(context.files) ? context.files : context.files.filter((_, index) => context.results[index]?.status !== 'success'),
      currentIndex: 0,
      results: [],
      uploadedFileIds: [],
      errorType: null,
      report: null,
      retry: null,
      // As before the first try: nothing sent, nothing earlier to continue.
      transfer: { loaded: 0, total: 0, startedAt: null, startLoaded: 0, at: null },
      earlier: null,
      startOver: false,
    })),
    // The request goes again from its first byte: nothing sent counts, and the rate starts afresh.
    countFromZero: assign(({ context }) => ({ transfer: { ...context.transfer, loaded: 0, startedAt: null, startLoaded: 0, at: null } })),
    // One request carried every photo: one result for them all, and nothing left to send.
    recordPhotosUploaded: assign(({ context }, params: { output: UploadFileOutput | undefined }) => {
      const result: UploadFileResult = { status: 'success', fileName: photosLabel(context.files.length), id: params.output?.id ?? null };
      return { results: [...context.results, result], currentIndex: context.files.length };
    }),
    recordPhotosFailed: assign(({ context }, params: { error: unknown }) => {
      const result: UploadFileResult = {
        status: 'error',
        fileName: photosLabel(context.files.length),
        errorType: classifyUploadError(params.error),
        // The server says which photo and why (too small to read, not an image).
        message: refusalReason(params.error),
      };
      return { results: [...context.results, result], currentIndex: context.files.length };
    }),
    keepEarlier: assign((_, params: { earlier: EarlierUpload | null }) => ({ earlier: params.earlier })),
    continueEarlier: assign(({ context }) => ({
      transfer: { ...context.transfer, loaded: context.earlier?.offset ?? 0 },
      startOver: false,
    })),
    startOver: assign({ startOver: true }),
    // After a pause or a retry the rate counts again from the next report.
    restartRate: assign(({ context }) => ({ transfer: { ...context.transfer, startedAt: null, startLoaded: 0, at: null }, retry: null })),
    keepRetry: assign(({ event }) => (event.type === 'UPLOAD_RETRYING' ? { retry: { delayMs: event.delayMs, at: event.at } } : {})),
    countBytes: assign(({ context, event }) =>
      event.type === 'UPLOAD_PROGRESS'
        ? {
            // Bytes went out: a pause now continues rather than starting over again.
            startOver: false,
            retry: null,
            transfer: {
              loaded: event.loaded,
              total: event.total > 0 ? event.total : context.transfer.total,
              // The rate counts from the first report: the time to open the connection is not sending.
              startedAt: context.transfer.startedAt ?? event.at,
              startLoaded: context.transfer.startedAt === null ? event.loaded : context.transfer.startLoaded,
              at: event.at,
            },
          }
        : {},
    ),
    keepReport: assign((_, params: { report: ProcessingReport }) => ({ report: params.report })),
    recordUnsendableFile: assign(({ context }) => {
      const file = context.files[context.currentIndex];
      const result: UploadFileResult = {
        status: 'error',
        fileName: file?.name ?? null,
        errorType: null,
        message: fileProblem(file),
      };
      return { results: [...context.results, result], currentIndex: context.currentIndex + 1 };
    }),
    recordUploaded: assign(({ context }, params: { output: UploadFileOutput | undefined }) => {
      const output = params.output;
      const result: UploadFileResult = {
        status: 'success',
        fileName: context.files[context.currentIndex]?.name ?? '',
        id: output?.id ?? null,
      };
      return { results: [...context.results, result], currentIndex: context.currentIndex + 1 };
    }),
    recordFailed: assign(({ context }, params: { error: unknown }) => {
      const result: UploadFileResult = {
        status: 'error',
        fileName: context.files[context.currentIndex]?.name ?? null,
        errorType: classifyUploadError(params.error),
        message: null,
      };
      return { results: [...context.results, result], currentIndex: context.currentIndex + 1 };
    }),
    finishSuccess: assign(({ context }) => {
      const outcome = summarizeUploadResults(context.results);
      return { uploadedFileIds: outcome.status === 'success' ? outcome.fileIds : [], errorType: null };
    }),
    finishFailure: assign(({ context }) => {
      const outcome = summarizeUploadResults(context.results);
      return {
        uploadedFileIds: context.results.flatMap((r) => (r.status === 'success' && r.id !== null ? [r.id] : [])),
        errorType: outcome.status === 'error' ? outcome.errorType : 'UNKNOWN_ERROR',
      };
    }),
  },
  guards: {
    isStudyHelperVariant: ({ context }) => context.variant === 'study_helper',
    isServiceCenterVariant: ({ context }) => context.variant === 'service_center',
    isIntroUpload: ({ context }) => context.isIntro,
    canUpload: ({ context }) => canUpload(context),
    allFilesHandled: ({ context }) => context.currentIndex >= context.files.length,
    sendsPhotos: ({ context }) => isPhotoSelection(context.files),
    hasPhoto: ({ context, event }) => event.type === 'REMOVE_PHOTO' && event.index < context.files.filter(isPhoto).length,
    allFilesUploaded: ({ context }) => summarizeUploadResults(context.results).status === 'success',
    currentFileUnsendable: ({ context }) => fileProblem(context.files[context.currentIndex]) !== null,
    reportHasProblems: ({ context }) => (context.report?.problems ?? 0) > 0,
    foundEarlier: (_, params: { earlier: EarlierUpload | null }) => params.earlier !== null && params.earlier.offset > 0,
  },
});
