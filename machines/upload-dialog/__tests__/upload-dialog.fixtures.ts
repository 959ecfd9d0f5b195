// The events, actor results and inputs the model tests walk the upload-dialog machine's graph with
// (machines/upload-dialog/__tests__ and tests/model): test material, kept out of the bundle.
import { MAX_UPLOAD_BYTES } from '../../constants';
import type {
  EarlierUpload,
  FileLike,
  ProcessingReport,
  UploadDialogEvent,
  UploadDialogInput,
  UploadFileOutput,
  UploadHttpError,
} from '../upload-dialog.types';
import type { ActorResultEvent, EventFixtures } from '../../__tests__/model-events';

const pdf = (name: string, size: number): FileLike => ({ name, size, type: 'application/pdf', lastModified: 1_700_000_000_000 });
const jpeg = (name: string, size: number, lastModified: number): FileLike => ({ name, size, type: 'image/jpeg', lastModified });

/** One example of every event, for model-based tests (the drop mixes a too-large PDF and a text file). */
export const uploadDialogEventFixtures = {
  OPEN: { type: 'OPEN' },
  UPLOAD_PROGRESS: { type: 'UPLOAD_PROGRESS', loaded: 1_024, total: 2_048, at: 1_700_000_001_000 },
  ANSWER_INTRO: { type: 'ANSWER_INTRO', isIntro: true },
  SELECT_STUDY_HELPER: { type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-1' },
  SET_PAGE_LENGTH: { type: 'SET_PAGE_LENGTH', pageLength: 2 },
  CHOOSE_FILES: { type: 'CHOOSE_FILES', files: [pdf('scan.pdf', 2_048)] },
  DROP_FILES: {
    type: 'DROP_FILES',
    files: [pdf('huge.pdf', MAX_UPLOAD_BYTES + 1), { name: 'notes.txt', size: 10, type: 'text/plain', lastModified: 0 }],
  },
  // A phone's camera names every photo alike: told apart by size and time.
  ADD_PHOTOS: { type: 'ADD_PHOTOS', files: [jpeg('image.jpg', 3_000, 1_700_000_100_000), jpeg('image.jpg', 3_100, 1_700_000_160_000)] },
  REMOVE_FILE: { type: 'REMOVE_FILE', name: 'huge.pdf' },
  REMOVE_PHOTO: { type: 'REMOVE_PHOTO', index: 0 },
  CLEAR_FILES: { type: 'CLEAR_FILES' },
  TRY_AGAIN: { type: 'TRY_AGAIN' },
  UPLOAD: { type: 'UPLOAD' },
  CANCEL: { type: 'CANCEL' },
  CLOSE: { type: 'CLOSE' },
  PAUSE: { type: 'PAUSE' },
  RESUME: { type: 'RESUME' },
  CONTINUE_EARLIER: { type: 'CONTINUE_EARLIER' },
  START_OVER: { type: 'START_OVER' },
  UPLOAD_RETRYING: { type: 'UPLOAD_RETRYING', delayMs: 8_000, at: 1_700_000_002_000 },
} satisfies EventFixtures<UploadDialogEvent>;

/** Results of the `uploadFile`, `findEarlierUpload` and `followProcessing` actors, for graph walks. */
export const uploadDialogActorResults: readonly ActorResultEvent[] = [
  { type: 'xstate.done.actor.findEarlierUpload', output: null },
  { type: 'xstate.done.actor.findEarlierUpload', output: { offset: 1_024, size: 2_048 } satisfies EarlierUpload },
  { type: 'xstate.done.actor.uploadFile', output: { id: 'file-1' } satisfies UploadFileOutput },
  { type: 'xstate.done.actor.uploadPhotos', output: { id: 'file-1' } satisfies UploadFileOutput },
  {
    type: 'xstate.error.actor.uploadPhotos',
    error: { status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read.' } } } satisfies UploadHttpError,
  },
  {
    type: 'xstate.error.actor.uploadFile',
    error: { status: 409, body: { detail: { error_type: 'DUPLICATE_FILE' } } } satisfies UploadHttpError,
  },
  {
    type: 'xstate.done.actor.followProcessing',
    output: { problems: 0, counts: [{ label: 'pages read', count: 4 }, { label: 'matched', count: 4 }], nextStep: null, href: null } satisfies ProcessingReport,
  },
  {
    type: 'xstate.done.actor.followProcessing',
    output: {
      problems: 2,
      counts: [{ label: 'pages read', count: 4 }, { label: 'matched', count: 2 }, { label: 'not matched', count: 2 }],
      nextStep: 'Open the upload to see why.',
      href: null,
    } satisfies ProcessingReport,
  },
];

/** Inputs under which, together, every state is reachable. */
export const uploadDialogModelInputs: readonly UploadDialogInput[] = [
  { variant: 'service_center', acceptedTypes: ['application/pdf', 'image/*', '.heic', '.heif'] },
  { variant: 'study_helper', acceptedTypes: ['application/pdf', 'image/*', '.heic', '.heif'] },
];
