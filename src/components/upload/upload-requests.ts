// The two upload requests of spec §7, one per file, as the upload-dialog machine's `uploadFile`
// actor makes them: POST /api/file (service center) and POST /api/study-helpers/file. They go by
// XMLHttpRequest, whose upload events tell how many bytes were sent (fetch cannot say), so the
// dialog shows real progress over slow links; the abort signal cancels the request.
import { getUploadFileUrl } from '../../../generated/hooks/files/files';
import { getUploadStudyHelperFileUrl } from '../../../generated/hooks/study-helpers/study-helpers';
import type { Created, FileUpload, StudyHelperFileUpload, UploadResult } from '../../../generated/hooks/model';
import type {
  FileLike,
  UploadFileInput,
  UploadFileOutput,
  UploadHttpError,
  UploadProgress,
} from '../../../machines/upload-dialog/upload-dialog.machine';
import { ApiError } from '../../lib/api-client';

function asBlob(file: FileLike): Blob & FileLike {
  if (!(file instanceof Blob)) throw new TypeError('File is undefined');
  return file as Blob & FileLike;
}

/** scanned_at: the file's modified date as an ISO timestamp. */
export function scannedAt(file: Pick<FileLike, 'lastModified'>): string {
  return new Date(file.lastModified).toISOString();
}

/**
 * A multipart POST that reports bytes sent; resolves with the JSON answer of a 2xx, rejects with
 * an ApiError (status, body) for any other status and with a TypeError when the network fails.
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
      else reject(new ApiError(request.status, request.statusText, body));
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

function formOf(fields: Record<string, string | Blob | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}

/** POST /api/file: name, answer_sheet_page_length, scanned_at and the file. */
export async function uploadServiceCenterFile(input: UploadFileInput, signal: AbortSignal): Promise<UploadFileOutput> {
  const file = asBlob(input.file);
  const fields: FileUpload = {
    name: file.name,
    answer_sheet_page_length: String(input.answerSheetPageLength) as FileUpload['answer_sheet_page_length'],
    scanned_at: scannedAt(file),
    file,
  };
  const created = await postWithProgress<Created>(getUploadFileUrl(), formOf({ ...fields }), signal, input.onProgress);
  return { id: created.id };
}

/**
 * An upload the server answered with `{status: "error", errorType}`: a refusal with its type, so it
 * is classified like a 400 carrying that error type (VALIDATION_ERROR when it names none).
 */
export function refusedUpload(errorType: string | undefined): UploadHttpError {
  return { status: 400, body: { detail: errorType ? { error_type: errorType } : 'Upload refused' } };
}

/** POST /api/study-helpers/file: name, study_helper only for intro files, and the file. */
export async function uploadStudyHelperScan(input: UploadFileInput, signal: AbortSignal): Promise<UploadFileOutput> {
  const file = asBlob(input.file);
  const fields: StudyHelperFileUpload = {
    name: file.name,
    ...(input.isIntro && input.studyHelperId ? { study_helper: input.studyHelperId } : {}),
    file,
  };
  const result = await postWithProgress<UploadResult>(getUploadStudyHelperFileUrl(), formOf({ ...fields }), signal, input.onProgress);
  if (result.status === 'error') throw refusedUpload(result.errorType);
  return { id: result.id ?? null };
}
