// The upload dialog's types: its input, context and events, and what its actors take and give
// (the hierarchy and the actors are described in upload-dialog.machine.ts).
import type { AnswerSheetPageLength } from '../constants';

export type UploadVariant = 'service_center' | 'study_helper';

/** What the machine needs of a browser File (a File satisfies it). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
  lastModified: number;
}

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

/** Why a selection cannot go as one upload of the contract (UploadedPages), before anything is sent. */
export type SelectionProblem =
  | { kind: 'pdf_with_photos' }
  | { kind: 'too_many_photos'; count: number; max: number }
  | { kind: 'photos_too_large'; bytes: number; max: number }
  | { kind: 'not_a_page'; name: string };

export type UploadFileResult =
  | { status: 'success'; fileName: string; id: string | null }
  | { status: 'error'; fileName: string | null; errorType: UploadErrorType | null; message: string | null };

export type UploadOutcome = { status: 'success'; fileIds: string[] } | { status: 'error'; errorType: UploadErrorType };

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
