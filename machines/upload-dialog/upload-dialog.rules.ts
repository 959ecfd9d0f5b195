// The upload dialog's rules as pure functions: which files can be chosen and sent, how a
// refusal is classified, how the per-file results add up, and what the progress shows.
import {
  DEFAULT_ANSWER_SHEET_PAGE_LENGTH,
  MAX_PHOTOS_PER_UPLOAD,
  MAX_UPLOAD_BYTES,
  PHOTO_EXTENSIONS,
  PHOTO_TYPES,
} from '../constants';
import type {
  UploadVariant,
  FileLike,
  UploadErrorType,
  UploadHttpError,
  SelectionProblem,
  UploadFileResult,
  UploadOutcome,
  UploadDialogContext,
  UploadRetry,
} from './upload-dialog.types';

/** Shown next to a chosen file over the size limit. */
export const FILE_TOO_LARGE_LABEL = 'File too Large';

/** Per-file errors recorded by the upload loop (spec §8). */
export const FILE_UNDEFINED_ERROR = 'File is undefined';

export const FILE_TOO_LARGE_ERROR = 'File too large';

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

export const freshContext = (variant: UploadVariant, acceptedTypes: string[]): UploadDialogContext => ({
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
