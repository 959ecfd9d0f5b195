// What the upload requests send (spec §7): scanned_at from the file's modified date. PDFs go
// resumably (./resumable-upload.ts); photos of pages go together in one multipart call of the
// contract (a tus upload is one file), the field `file` repeated in the order they will be read.
// That call goes by XMLHttpRequest, whose upload events tell how many bytes were sent (fetch
// cannot say), so the dialog shows real progress over a phone's slow link.
import { getUploadFileUrl } from '../../../generated/hooks/files/files';
import { getUploadStudyHelperFileUrl } from '../../../generated/hooks/study-helpers/study-helpers';
import type { Created, FileUpload, StudyHelperFileUpload, UploadResult } from '../../../generated/hooks/model';
import { photosLabel } from '../../../machines/upload-dialog/upload-dialog.rules';
import type {
  FileLike,
  UploadFileOutput,
  UploadHttpError,
  UploadPhotosInput,
  UploadProgress,
} from '../../../machines/upload-dialog/upload-dialog.types';
import { formatDateTime } from '../../lib/format';

/** scanned_at: the file's modified date as an ISO timestamp. */
export function scannedAt(file: Pick<FileLike, 'lastModified'>): string {
  return new Date(file.lastModified).toISOString();
}

/**
 * The name photos go by in the lists: phones call every photo "image.jpg", so it says what they
 * are and when the last was taken ("3 photos, Nov 27, 2026, 5:42 PM").
 */
export function photoUploadName(photos: readonly Pick<FileLike, 'lastModified'>[]): string {
  const last = Math.max(...photos.map((photo) => photo.lastModified));
  return `${photosLabel(photos.length)}, ${formatDateTime(new Date(last).toISOString())}`;
}

function asBlobs(files: readonly FileLike[]): Blob[] {
  return files.map((file) => {
    if (!(file instanceof Blob)) throw new TypeError('File is undefined');
    return file;
  });
}

/**
 * A multipart POST that reports bytes sent; resolves with the JSON answer of a 2xx, rejects with
 * {status, body} for any other status and with a TypeError when the network fails.
 */
export function postWithProgress<T>(url: string, form: FormData, signal: AbortSignal, onProgress?: (progress: UploadProgress) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    request.open('POST', new URL(url, globalThis.location?.origin ?? 'http://localhost').toString());
    request.withCredentials = true;
    request.setRequestHeader('accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total, at: Date.now() });
    };
    const abort = () => request.abort();
    signal.addEventListener('abort', abort, { once: true });
    const done = () => signal.removeEventListener('abort', abort);
    request.onload = () => {
      done();
      let body: unknown = null;
      try {
        body = request.responseText === '' ? {} : JSON.parse(request.responseText);
      } catch {
        body = request.responseText;
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject({ status: request.status, body } satisfies UploadHttpError);
    };
    request.onerror = () => {
      done();
      reject(new TypeError('Upload failed: network error'));
    };
    request.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    request.send(form);
  });
}

/** The multipart body as the generated client builds it: each field once, `file` once per item. */
export function formOf(fields: FileUpload | StudyHelperFileUpload): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields) as [string, string | Blob[] | undefined][]) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(name, item);
    else form.append(name, value);
  }
  return form;
}

/** The multipart body of photos for the variant's call (POST /api/file or /api/study-helpers/file). */
export function photosRequest(input: UploadPhotosInput): { url: string; form: FormData } {
  const photos = asBlobs(input.photos);
  const name = photoUploadName(input.photos);
  if (input.variant === 'service_center') {
    const fields: FileUpload = {
      name,
      answer_sheet_page_length: String(input.answerSheetPageLength) as FileUpload['answer_sheet_page_length'],
      // The first photo taken is when the paper was "scanned".
      scanned_at: scannedAt({ lastModified: Math.min(...input.photos.map((photo) => photo.lastModified)) }),
      file: photos,
    };
    return { url: getUploadFileUrl(), form: formOf(fields) };
  }
  const fields: StudyHelperFileUpload = {
    name,
    ...(input.isIntro && input.studyHelperId ? { study_helper: input.studyHelperId } : {}),
    file: photos,
  };
  return { url: getUploadStudyHelperFileUrl(), form: formOf(fields) };
}

/**
 * An upload the server answered with `{status: "error", errorType}`: a refusal with its type, so it
 * is classified like a 400 carrying that error type (VALIDATION_ERROR when it names none).
 */
export function refusedUpload(errorType: string | undefined): UploadHttpError {
  return { status: 400, body: { detail: errorType ? { error_type: errorType } : 'Upload refused' } };
}

/**
 * Waits before sending photos again after a dropped connection: quick at first, then once a minute
 * for a few minutes (a phone walking back into coverage). Each attempt starts from the first byte.
 */
export const PHOTO_RETRY_DELAYS_MS = [1_000, 3_000, 8_000, 15_000, 30_000, 60_000, 60_000, 60_000];

/** A dropped connection or a server that failed, not a refusal of the photos themselves. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const status = (error as UploadHttpError | null)?.status;
  return typeof status === 'number' && (status === 0 || status >= 500);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('The upload was cancelled.', 'AbortError'));
      },
      { once: true },
    );
  });
}

async function sendPhotosOnce(input: UploadPhotosInput, signal: AbortSignal): Promise<UploadFileOutput> {
  const { url, form } = photosRequest(input);
  if (input.variant === 'service_center') {
    const created = await postWithProgress<Created>(url, form, signal, input.onProgress);
    return { id: created.id };
  }
  const result = await postWithProgress<UploadResult>(url, form, signal, input.onProgress);
  if (result.status === 'error') throw refusedUpload(result.errorType);
  return { id: result.id ?? null };
}

/** The `uploadPhotos` actor: every photo in one request, its progress reported as it goes. */
export async function uploadPhotos(input: UploadPhotosInput, signal: AbortSignal, delays: readonly number[] = PHOTO_RETRY_DELAYS_MS): Promise<UploadFileOutput> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await sendPhotosOnce(input, signal);
    } catch (error) {
      const delayMs = delays[attempt];
      if (signal.aborted || delayMs === undefined || !worthRetrying(error)) throw error;
      input.onRetry?.({ delayMs, at: Date.now() });
      await wait(delayMs, signal);
    }
  }
}
