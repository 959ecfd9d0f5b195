// Upload dialog, in two variants chosen by input.variant:
//   service_center  a scanned file for POST /api/file, with answer_sheet_page_length 0|1|2 (default 0)
//   study_helper    graded scans or intro files for POST /api/study-helpers/file; asks first whether
//                   the upload is an intro file, and an intro file needs a chosen study helper
//
// State hierarchy (id "uploadDialog"):
//   closed                 initial. OPEN → open
//   open                   CANCEL or CLOSE (from any substate) → closed, everything reset
//     (starting)           transient: → askingIntro (study_helper) or choosing (service_center)
//     askingIntro          "intro file?" ANSWER_INTRO {isIntro} → choosing
//     choosing             CHOOSE_FILES / DROP_FILES (dropped files are filtered by accepted types)
//                          replace the selection; ADD_PHOTOS (the camera, a photo or a few at a
//                          time) adds to it, a photo already chosen once; each file over
//                          MAX_UPLOAD_BYTES is kept aside and flagged "File too Large".
//                          REMOVE_FILE {name}, REMOVE_PHOTO {index} (phones name every photo
//                          alike), CLEAR_FILES, SELECT_STUDY_HELPER (intro only), SET_PAGE_LENGTH
//                          (service_center only). UPLOAD → uploading, guard canUpload: a file, no
//                          too-large file, a selection the contract takes (PDFs, or 1 to 50 photos
//                          and nothing else: selectionProblem) and a study helper when it is an
//                          intro upload
//     uploading            PDFs: one resumable upload per file, in order; photos: one multipart
//                          request carrying them all. Results collected per request.
//                          CANCEL here → cancelled (not closed: the dialog says nothing was stored)
//       (nextFile)         transient: all files handled → decide; photos → sendingPhotos; a file
//                          that cannot be sent ("File is undefined", "File too large") is recorded
//                          and skipped; otherwise → lookingForEarlier
//       lookingForEarlier  invokes actor `findEarlierUpload` (id "findEarlierUpload"): an
//                          unfinished upload of the same file (a reload, a closed laptop) →
//                          offeringToContinue; none (or the lookup failed) → sending
//       offeringToContinue context.earlier (bytes kept of how many): CONTINUE_EARLIER → sending
//                          from there; START_OVER → sending from 0 (the earlier one is dropped)
//       sending            invokes actor `uploadFile` (id "uploadFile") for context.currentIndex;
//                          UPLOAD_PROGRESS {loaded, total, at} updates bytes sent, percent and time
//                          left; done or error → nextFile (an error is classified with
//                          classifyUploadError); PAUSE → paused
//         transferring     bytes going out. UPLOAD_RETRYING {delayMs, at} → waitingToRetry
//         waitingToRetry   the connection dropped; the actor retries with backoff by itself
//                          ("Connection lost, retrying in 8 s…"); UPLOAD_PROGRESS → transferring
//       paused             the actor is stopped (the server keeps what arrived); RESUME → sending,
//                          which continues from the server's offset
//       sendingPhotos      invokes actor `uploadPhotos` (id "uploadPhotos"): every photo in one
//                          request (a tus upload is one file), UPLOAD_PROGRESS counting the bytes
//                          of them all; done or error → nextFile with all of them handled. No
//                          pause: a multipart request cannot continue, only start again
//         transferring     bytes going out. UPLOAD_RETRYING → waitingToRetry
//         waitingToRetry   the connection dropped; the actor sends the request again from the
//                          start after a wait, by itself; UPLOAD_PROGRESS → transferring
//     cancelled            invokes actor `cancelUpload` (the server drops the unfinished upload's
//                          parts); shows that nothing of the file was stored. CLOSE → closed
//     (decide)             transient: summarizeUploadResults → processing | failed
//     processing           every file uploaded (context.uploadedFileIds); invokes actor
//                          `followProcessing` (id "followProcessing") until the server has read
//                          every page; its report → (reported)
//     (reported)           transient: a report with no problem → success, otherwise → warning
//     success              everything matched (graded) or nothing flagged (service center)
//     warning              context.report: counts and the next step
//     failed               context.errorType (spec §8), e.g. for the result banner. TRY_AGAIN →
//                          choosing with the files not uploaded still chosen (photos taken with a
//                          phone's camera are often nowhere else), so one can be removed and the
//                          rest sent again
//
// The screen supplies with .provide(): actor `uploadFile` (a resumable upload; it throws
// {status, body} for a refusal and anything else for a network failure it gave up on; it reports
// bytes sent through input.onProgress and each retry through input.onRetry), actors
// `findEarlierUpload` and `cancelUpload`, and actor `followProcessing` (waits for the server's processing
// of the uploaded ids and returns a ProcessingReport; an error there ends in success with no
// report: the upload itself worked), and actor `uploadPhotos` (one multipart request, throwing as
// `uploadFile` does). Leaving `sending` or `sendingPhotos` (CANCEL/CLOSE) stops the actor, which
// aborts its `signal`: the request is cancelled. Closing while processing leaves the server at it.
import { assign, fromPromise, setup } from 'xstate';
import {
  DEFAULT_ANSWER_SHEET_PAGE_LENGTH,
  MAX_PHOTOS_PER_UPLOAD,
  MAX_UPLOAD_BYTES,
  PHOTO_EXTENSIONS,
  PHOTO_TYPES,
  type AnswerSheetPageLength,
} from '../constants';

export type UploadVariant = 'service_center' | 'study_helper';

/** What the machine needs of a browser File (a File satisfies it). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
  lastModified: number;
}

/** Shown next to a chosen file over the size limit. */
export const FILE_TOO_LARGE_LABEL = 'File too Large';
/** Per-file errors recorded by the upload loop (spec §8). */
export const FILE_UNDEFINED_ERROR = 'File is undefined';
export const FILE_TOO_LARGE_ERROR = 'File too large';

/** Error types of spec §8; the server may also send its own detail.error_type. */
export type KnownUploadErrorType =
  | 'DUPLICATE_FILE'
  | 'VALIDATION_ERROR'
  | 'SERVER_ERROR'
  | 'NETWORK_ERROR'
  | 'NO_FILES_UPLOADED'
  | 'UNKNOWN_ERROR';
export type UploadErrorType = KnownUploadErrorType | (string & {});

/** What the `uploadFile` actor throws for an HTTP error: the status and the parsed JSON body. */
export interface UploadHttpError {
  status?: number;
  body?: unknown;
}

function errorTypeFromBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return undefined;
  const detail = body.detail;
  if (typeof detail !== 'object' || detail === null || !('error_type' in detail)) return undefined;
  const errorType = detail.error_type;
  return typeof errorType === 'string' && errorType !== '' ? errorType : undefined;
}

/**
 * Spec §8: 409 → detail.error_type or DUPLICATE_FILE; 400 → detail.error_type or VALIDATION_ERROR;
 * 5xx → SERVER_ERROR; anything else (other statuses, network failures) → NETWORK_ERROR.
 */
export function classifyUploadError(error: unknown): UploadErrorType {
  const http = typeof error === 'object' && error !== null ? (error as UploadHttpError) : {};
  const status = typeof http.status === 'number' ? http.status : undefined;
  if (status === 409) return errorTypeFromBody(http.body) ?? 'DUPLICATE_FILE';
  if (status === 400) return errorTypeFromBody(http.body) ?? 'VALIDATION_ERROR';
  if (status !== undefined && status >= 500 && status <= 599) return 'SERVER_ERROR';
  return 'NETWORK_ERROR';
}

/** True when a file is over the 1.5 GB limit. */
export function isTooLarge(file: FileLike): boolean {
  return file.size > MAX_UPLOAD_BYTES;
}

/** Why a file cannot be sent at all, or null when it can. */
export function fileProblem(file: FileLike | null | undefined): string | null {
  if (!file) return FILE_UNDEFINED_ERROR;
  if (isTooLarge(file)) return FILE_TOO_LARGE_ERROR;
  return null;
}

/**
 * Whether a file matches an `accept` list: MIME types ("application/pdf"), wildcards ("image/*")
 * and extensions (".pdf"), case-insensitive. An empty list accepts everything.
 */
export function isAcceptedType(file: FileLike, acceptedTypes: readonly string[]): boolean {
  if (acceptedTypes.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return acceptedTypes.some((raw) => {
    const accepted = raw.trim().toLowerCase();
    if (accepted.startsWith('.')) return name.endsWith(accepted);
    if (accepted.endsWith('/*')) return type.startsWith(accepted.slice(0, -1));
    return accepted !== '' && type === accepted;
  });
}

/** "application/pdf, .pdf" or ['application/pdf', '.pdf'] → a clean list. */
export function parseAcceptedTypes(accept: string | readonly string[] | null | undefined): string[] {
  const parts = typeof accept === 'string' ? accept.split(',') : [...(accept ?? [])];
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** A photo of a page the contract takes: JPEG, PNG or HEIC/HEIF (by extension when the browser names no type). */
export function isPhoto(file: FileLike): boolean {
  const type = file.type.toLowerCase();
  if (PHOTO_TYPES.includes(type)) return true;
  const untyped = type === '' || type === 'application/octet-stream';
  return untyped && PHOTO_EXTENSIONS.some((extension) => file.name.toLowerCase().endsWith(extension));
}

export function isPdf(file: FileLike): boolean {
  const type = file.type.toLowerCase();
  return type === 'application/pdf' || ((type === '' || type === 'application/octet-stream') && file.name.toLowerCase().endsWith('.pdf'));
}

/** Why a selection cannot go as one upload of the contract (UploadedPages), before anything is sent. */
export type SelectionProblem =
  | { kind: 'pdf_with_photos' }
  | { kind: 'too_many_photos'; count: number; max: number }
  | { kind: 'photos_too_large'; bytes: number; max: number }
  | { kind: 'not_a_page'; name: string };

/**
 * Spec'd by the contract: one PDF per upload (several PDFs go one upload each), or 1 to 50 photos
 * and nothing else, at most 1.5 GB in all; anything else is neither.
 */
export function selectionProblem(files: readonly FileLike[]): SelectionProblem | null {
  const other = files.find((file) => !isPdf(file) && !isPhoto(file));
  if (other) return { kind: 'not_a_page', name: other.name };
  const photos = files.filter(isPhoto);
  if (photos.length === 0) return null;
  if (photos.length < files.length) return { kind: 'pdf_with_photos' };
  if (photos.length > MAX_PHOTOS_PER_UPLOAD) return { kind: 'too_many_photos', count: photos.length, max: MAX_PHOTOS_PER_UPLOAD };
  const bytes = photos.reduce((sum, photo) => sum + photo.size, 0);
  if (bytes > MAX_UPLOAD_BYTES) return { kind: 'photos_too_large', bytes, max: MAX_UPLOAD_BYTES };
  return null;
}

/** The selection goes as photos of pages (one request for them all) rather than PDFs. */
export function isPhotoSelection(files: readonly FileLike[]): boolean {
  return files.length > 0 && files.every(isPhoto);
}

export type UploadFileResult =
  | { status: 'success'; fileName: string; id: string | null }
  | { status: 'error'; fileName: string | null; errorType: UploadErrorType | null; message: string | null };

export type UploadOutcome = { status: 'success'; fileIds: string[] } | { status: 'error'; errorType: UploadErrorType };

/**
 * The dialog's outcome from the per-file results: nothing uploaded → NO_FILES_UPLOADED; any failed
 * file → its error type (the first one), or UNKNOWN_ERROR when it has none; otherwise success.
 */
export function summarizeUploadResults(results: readonly UploadFileResult[]): UploadOutcome {
  if (results.length === 0) return { status: 'error', errorType: 'NO_FILES_UPLOADED' };
  const failure = results.find((result) => result.status === 'error');
  if (failure) return { status: 'error', errorType: failure.errorType ?? 'UNKNOWN_ERROR' };
  const fileIds = results.flatMap((result) => (result.status === 'success' && result.id !== null ? [result.id] : []));
  return { status: 'success', fileIds };
}

export interface UploadDialogInput {
  variant: UploadVariant;
  /** The `accept` list of the file picker; dropped files are filtered by it. Absent: any type. */
  acceptedTypes?: string | readonly string[] | undefined;
}

export interface UploadDialogContext {
  variant: UploadVariant;
  acceptedTypes: string[];
  /** study_helper: the answer to "intro file?"; always false for service_center. */
  isIntro: boolean;
  /** study_helper intro: the chosen study helper's id. */
  studyHelperId: string | null;
  /** service_center: answer_sheet_page_length. */
  answerSheetPageLength: AnswerSheetPageLength;
  /** The chosen files that will be uploaded, in order. */
  files: FileLike[];
  /** Chosen files over MAX_UPLOAD_BYTES: skipped and flagged "File too Large"; they block Upload. */
  tooLargeFiles: FileLike[];
  /** Index in `files` of the file being uploaded. */
  currentIndex: number;
  /** One result per file handled so far. */
  results: UploadFileResult[];
  /** Ids returned by the server, in order (filled on success). */
  uploadedFileIds: string[];
  /** Set in `failed`. */
  errorType: UploadErrorType | null;
  /**
   * Bytes of the current file: sent so far and in all; the first report (time and bytes, where the
   * rate counts from) and the time of the last one.
   */
  transfer: { loaded: number; total: number; startedAt: number | null; startLoaded: number; at: number | null };
  /** Set when processing ended (success with a report, or warning). */
  report: ProcessingReport | null;
  /** An unfinished upload of the current file found on the server (offeringToContinue). */
  earlier: EarlierUpload | null;
  /** The current file starts over rather than continuing its earlier upload (until bytes go out). */
  startOver: boolean;
  /** The last dropped connection's retry, while waitingToRetry. */
  retry: UploadRetry | null;
}

/** Whole seconds until the retry, at `now`; 0 once it is due. */
export function retrySecondsLeft(retry: UploadRetry, now: number): number {
  return Math.max(0, Math.ceil((retry.at + retry.delayMs - now) / 1000));
}

/** Share of the current file sent, 0 to 100. */
export function uploadPercent(context: Pick<UploadDialogContext, 'transfer'>): number {
  const { loaded, total } = context.transfer;
  return total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
}

/** Seconds left at the average rate so far, or null before there is a rate to go by. */
export function uploadSecondsLeft(context: Pick<UploadDialogContext, 'transfer'>): number | null {
  const { loaded, total, startedAt, startLoaded, at } = context.transfer;
  if (startedAt === null || at === null || at <= startedAt || loaded <= startLoaded || total <= 0) return null;
  const rate = (loaded - startLoaded) / (at - startedAt);
  return Math.max(0, Math.ceil((total - loaded) / rate / 1000));
}

/** What the server made of the uploaded files, as the dialog's end summary shows it. */
export interface ProcessingReport {
  /** Pages not matched (graded uploads) or pages flagged (service center): 0 means success. */
  problems: number;
  /** The counts to show, in order (e.g. pages read, matched, not matched). */
  counts: readonly { label: string; count: number }[];
  /** What to do about the problems, when there are any. */
  nextStep: string | null;
  /** Where the whole report is (the upload page or the file). */
  href: string | null;
}

/** Bytes sent of the file being uploaded, and when (ms since the epoch) they were counted. */
export interface UploadProgress {
  loaded: number;
  total: number;
  at: number;
}

export type UploadDialogEvent =
  | { type: 'OPEN' }
  | ({ type: 'UPLOAD_PROGRESS' } & UploadProgress)
  | { type: 'ANSWER_INTRO'; isIntro: boolean }
  | { type: 'SELECT_STUDY_HELPER'; studyHelperId: string | null }
  | { type: 'SET_PAGE_LENGTH'; pageLength: AnswerSheetPageLength }
  | { type: 'CHOOSE_FILES'; files: readonly (FileLike | null | undefined)[] }
  | { type: 'DROP_FILES'; files: readonly (FileLike | null | undefined)[] }
  | { type: 'ADD_PHOTOS'; files: readonly (FileLike | null | undefined)[] }
  | { type: 'REMOVE_FILE'; name: string }
  /** index: the photo's place among the photos, from 0 ("Remove photo 1" sends 0). */
  | { type: 'REMOVE_PHOTO'; index: number }
  | { type: 'CLEAR_FILES' }
  | { type: 'TRY_AGAIN' }
  | { type: 'UPLOAD' }
  | { type: 'CANCEL' }
  | { type: 'CLOSE' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'CONTINUE_EARLIER' }
  | { type: 'START_OVER' }
  | ({ type: 'UPLOAD_RETRYING' } & UploadRetry);

/** The connection dropped: the next attempt is in `delayMs`, counted from `at` (ms since the epoch). */
export interface UploadRetry {
  delayMs: number;
  at: number;
}

/** An unfinished upload of the same file found on the server: bytes kept of the file's size. */
export interface EarlierUpload {
  offset: number;
  size: number;
}

/** Input of the `findEarlierUpload` and `cancelUpload` actors. */
export interface UploadTargetInput {
  variant: UploadVariant;
  file: FileLike;
}

/** Input of the `uploadFile` actor: everything one multipart request needs. */
export interface UploadFileInput {
  variant: UploadVariant;
  file: FileLike;
  /** service_center: answer_sheet_page_length. */
  answerSheetPageLength: AnswerSheetPageLength;
  isIntro: boolean;
  /** study_helper: sent as `study_helper` only for intro files; null otherwise. */
  studyHelperId: string | null;
  /** Start over instead of continuing an unfinished upload of the same file. */
  startOver?: boolean;
  /** Called with the bytes sent so far (the actor reports them to the machine through it). */
  onProgress?: (progress: UploadProgress) => void;
  /** Called when the connection dropped and the actor will try again. */
  onRetry?: (retry: UploadRetry) => void;
}

/** Input of the `uploadPhotos` actor: one multipart request carrying every photo, in order. */
export interface UploadPhotosInput {
  variant: UploadVariant;
  photos: readonly FileLike[];
  /** service_center: answer_sheet_page_length. */
  answerSheetPageLength: AnswerSheetPageLength;
  isIntro: boolean;
  /** study_helper: sent as `study_helper` only for intro files; null otherwise. */
  studyHelperId: string | null;
  /** Called with the bytes of the whole request sent so far. */
  onProgress?: (progress: UploadProgress) => void;
  /** Called when the connection dropped and the actor will send the request again. */
  onRetry?: (retry: UploadRetry) => void;
}

/** What a request's refusal says in words (the contract's detail.message), or null. */
export function refusalReason(error: unknown): string | null {
  const body = typeof error === 'object' && error !== null ? (error as UploadHttpError).body : undefined;
  if (typeof body !== 'object' || body === null || !('detail' in body)) return null;
  const detail = body.detail;
  if (typeof detail !== 'object' || detail === null || !('message' in detail)) return null;
  return typeof detail.message === 'string' && detail.message !== '' ? detail.message : null;
}

/** "3 photos": how the dialog names photos sent together. */
export function photosLabel(count: number): string {
  return count === 1 ? '1 photo' : `${count} photos`;
}

/** Input of the `followProcessing` actor. */
export interface FollowProcessingInput {
  variant: UploadVariant;
  /** The ids the server gave the uploaded files, in order. */
  ids: readonly string[];
}

/** Output of the `uploadFile` actor: the created file's id when the server returns one. */
export interface UploadFileOutput {
  id?: string | null | undefined;
}

/** Whether Upload is enabled (the `canUpload` guard). */
export function canUpload(context: UploadDialogContext): boolean {
  return (
    context.files.length > 0 &&
    context.tooLargeFiles.length === 0 &&
    selectionProblem(context.files) === null &&
    (!context.isIntro || context.studyHelperId !== null)
  );
}

type Selection = Pick<UploadDialogContext, 'files' | 'tooLargeFiles'>;

/**
 * The selection with photos added after it. A photo already there (same name, size and time) is
 * not added twice: a page sent twice would be read as a double feed.
 */
export function addPhotos(selection: Selection, added: readonly (FileLike | null | undefined)[]): Selection {
  const known = [...selection.files, ...selection.tooLargeFiles];
  const same = (a: FileLike, b: FileLike) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
  const fresh = added.filter((file): file is FileLike => Boolean(file) && !known.some((kept) => same(kept, file!)));
  const picked = selectFiles(fresh);
  return { files: [...selection.files, ...picked.files], tooLargeFiles: [...selection.tooLargeFiles, ...picked.tooLargeFiles] };
}

/** The files without the photo at `index` among the photos (0 is the first photo, "photo 1"). */
export function withoutPhoto(files: readonly FileLike[], index: number): FileLike[] {
  const photo = files.filter(isPhoto)[index];
  return files.filter((file) => file !== photo);
}

/** Splits picked files into those to upload and those over the limit; missing entries are dropped. */
export function selectFiles(picked: readonly (FileLike | null | undefined)[]): Selection {
  const present = picked.filter((file): file is FileLike => Boolean(file));
  return { files: present.filter((file) => !isTooLarge(file)), tooLargeFiles: present.filter(isTooLarge) };
}

const freshContext = (variant: UploadVariant, acceptedTypes: string[]): UploadDialogContext => ({
  variant,
  acceptedTypes,
  isIntro: false,
  studyHelperId: null,
  answerSheetPageLength: DEFAULT_ANSWER_SHEET_PAGE_LENGTH,
  files: [],
  tooLargeFiles: [],
  currentIndex: 0,
  results: [],
  uploadedFileIds: [],
  errorType: null,
  transfer: { loaded: 0, total: 0, startedAt: null, startLoaded: 0, at: null },
  report: null,
  earlier: null,
  startOver: false,
  retry: null,
});

export const uploadDialogMachine = setup({
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
}).createMachine({
  id: 'uploadDialog',
  context: ({ input }) => freshContext(input.variant, parseAcceptedTypes(input.acceptedTypes)),
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN: 'open' },
    },
    open: {
      initial: 'starting',
      on: {
        CANCEL: { target: 'closed', actions: 'reset' },
        CLOSE: { target: 'closed', actions: 'reset' },
      },
      states: {
        starting: {
          always: [{ guard: 'isStudyHelperVariant', target: 'askingIntro' }, { target: 'choosing' }],
        },
        askingIntro: {
          on: { ANSWER_INTRO: { target: 'choosing', actions: 'answerIntro' } },
        },
        choosing: {
          on: {
            CHOOSE_FILES: { actions: 'chooseFiles' },
            ADD_PHOTOS: { actions: 'addPhotos' },
            REMOVE_PHOTO: { guard: 'hasPhoto', actions: 'removePhoto' },
            DROP_FILES: { actions: 'dropFiles' },
            REMOVE_FILE: { actions: 'removeFile' },
            CLEAR_FILES: { actions: 'clearFiles' },
            SELECT_STUDY_HELPER: { guard: 'isIntroUpload', actions: 'selectStudyHelper' },
            SET_PAGE_LENGTH: { guard: 'isServiceCenterVariant', actions: 'setPageLength' },
            UPLOAD: { guard: 'canUpload', target: 'uploading', actions: 'startUploading' },
          },
        },
        uploading: {
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
        },
        cancelled: {
          invoke: {
            id: 'cancelUpload',
            src: 'cancelUpload',
            input: ({ context }) => ({ variant: context.variant, file: context.files[context.currentIndex] as FileLike }),
          },
        },
        decide: {
          always: [
            { guard: 'allFilesUploaded', target: 'processing', actions: 'finishSuccess' },
            { target: 'failed', actions: 'finishFailure' },
          ],
        },
        processing: {
          invoke: {
            id: 'followProcessing',
            src: 'followProcessing',
            input: ({ context }) => ({ variant: context.variant, ids: context.uploadedFileIds }),
            onDone: { target: 'reported', actions: { type: 'keepReport', params: ({ event }) => ({ report: event.output }) } },
            // The files were uploaded; only following their processing failed.
            onError: { target: 'success' },
          },
        },
        reported: {
          always: [{ guard: 'reportHasProblems', target: 'warning' }, { target: 'success' }],
        },
        success: {},
        warning: {},
        failed: {
          on: { TRY_AGAIN: { target: 'choosing', actions: 'keepFilesNotUploaded' } },
        },
      },
    },
  },
});
