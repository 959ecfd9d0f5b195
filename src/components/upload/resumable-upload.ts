// The upload dialog's uploads, resumable (tus 1.0.0 at /api/uploads/resumable, tus-js-client): the
// `uploadFile` actor sends a file in one stream that survives dropped connections (retried with
// backoff, from the offset the server kept), a pause (the actor stops; the next one continues),
// a reload (the upload's address is kept in localStorage, found again by the file's fingerprint)
// and a server restart. `findEarlierUpload` says how far an unfinished upload of the same file
// got; `cancelUpload` drops it on the server. The server hands the last byte to the multipart
// call of its kind and names the result in Upload-Result-Id, or its outcome on GET.
import { Upload, type DetailedError, type HttpResponse, type PreviousUpload } from 'tus-js-client';
import type { ResumableUpload } from '../../../generated/hooks/model';
import type {
  EarlierUpload,
  UploadFileInput,
  UploadFileOutput,
  UploadHttpError,
  UploadTargetInput,
} from '../../../machines/upload-dialog/upload-dialog.types';
import { scannedAt } from './upload-requests';

export const RESUMABLE_UPLOADS_PATH = '/api/uploads/resumable';
/** Waits between attempts after a dropped connection: quick at first, then once a minute for about 20 minutes. */
export const RETRY_DELAYS_MS = [1_000, 3_000, 8_000, 15_000, 30_000, ...Array<number>(20).fill(60_000)];

const endpoint = () => new URL(RESUMABLE_UPLOADS_PATH, globalThis.location?.origin ?? 'http://localhost').toString();

/** Same file, same kind of upload, same portal: the key an unfinished upload is found again by. */
function fingerprintOf(input: UploadTargetInput): string {
  const { name, size, type, lastModified } = input.file;
  return ['portal-upload', input.variant, name, type, size, lastModified, endpoint()].join('/');
}

function metadataOf(input: UploadFileInput): Record<string, string> {
  const file = input.file;
  if (input.variant === 'service_center') {
    return {
      kind: 'service_center',
      name: file.name,
      filename: file.name,
      answer_sheet_page_length: String(input.answerSheetPageLength),
      scanned_at: scannedAt(file),
    };
  }
  return {
    kind: 'graded',
    name: file.name,
    filename: file.name,
    ...(input.isIntro && input.studyHelperId ? { study_helper: input.studyHelperId } : {}),
  };
}

function tusUpload(input: UploadTargetInput, options: ConstructorParameters<typeof Upload>[1] = {}): Upload {
  if (!(input.file instanceof Blob)) throw new TypeError('File is undefined');
  return new Upload(input.file, {
    endpoint: endpoint(),
    fingerprint: async () => fingerprintOf(input),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    retryDelays: RETRY_DELAYS_MS,
    ...options,
  });
}

/** The JSON body of a refusal in the spec's shape, or undefined. */
function refusalBody(response: HttpResponse | null | undefined): unknown {
  const text = response?.getBody();
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    const body = JSON.parse(text) as { detail?: { error_type?: unknown } };
    return typeof body.detail === 'object' && body.detail !== null && typeof body.detail.error_type === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Retry unless the server refused the upload itself (a rule of the spec: duplicate, not a PDF,
 * not allowed): a dropped connection, a server error or a moved offset are tried again, online
 * or not (the browser may not know it is back online).
 */
function shouldRetry(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  if (refusalBody(error.originalResponse) !== undefined) {
    const type = (refusalBody(error.originalResponse) as { detail: { error_type: string } }).detail.error_type;
    return type === 'OFFSET_MISMATCH';
  }
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

function httpErrorOf(error: unknown): UploadHttpError | Error {
  const detailed = error as Partial<DetailedError>;
  const status = detailed.originalResponse?.getStatus();
  if (!status) return error instanceof Error ? error : new Error(String(error));
  return { status, body: refusalBody(detailed.originalResponse) ?? null };
}

/** The outcome of an upload whose last answer was lost: the server's record of it. */
async function outcomeOf(url: string, signal: AbortSignal): Promise<UploadFileOutput> {
  for (;;) {
    const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', signal });
    if (!response.ok) throw { status: response.status, body: await response.json().catch(() => null) } satisfies UploadHttpError;
    const upload = (await response.json()) as ResumableUpload;
    if (upload.state === 'accepted') return { id: upload.result_id ?? null };
    if (upload.state === 'refused') throw { status: upload.refusal?.status, body: { detail: upload.refusal?.detail } } satisfies UploadHttpError;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** The `uploadFile` actor: one file, continuing its unfinished upload unless told to start over. */
export async function resumableUploadFile(input: UploadFileInput, signal: AbortSignal): Promise<UploadFileOutput> {
  if (signal.aborted) throw new DOMException('The upload was cancelled.', 'AbortError');
  let upload: Upload;
  const finished = new Promise<HttpResponse>((resolve, reject) => {
    upload = tusUpload(input, {
      metadata: metadataOf(input),
      onProgress: (loaded, total) => input.onProgress?.({ loaded, total, at: Date.now() }),
      onShouldRetry: (error, attempt) => {
        const retry = shouldRetry(error);
        if (retry) input.onRetry?.({ delayMs: RETRY_DELAYS_MS[attempt] ?? 0, at: Date.now() });
        return retry;
      },
      onSuccess: ({ lastResponse }) => resolve(lastResponse),
      onError: (error) => reject(httpErrorOf(error)),
    });
  });
  const earlier = await upload!.findPreviousUploads();
  if (input.startOver) await Promise.all(earlier.map((previous) => dropEarlier(previous)));
  else if (earlier[0]) upload!.resumeFromPreviousUpload(earlier[0]);
  // Stopping (pause, close) leaves the upload on the server: the next start continues it.
  const stop = () => void upload.abort(false);
  signal.addEventListener('abort', stop, { once: true });
  upload!.start();
  try {
    const last = await finished;
    const id = last.getHeader('Upload-Result-Id');
    if (id) return { id };
    return await outcomeOf(upload!.url as string, signal);
  } catch (error) {
    // Refused (duplicate, not a PDF): there is nothing left to continue.
    if ((error as UploadHttpError).status !== undefined) await forgetEarlier(input);
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** The unfinished upload of this file that its next start would continue, or null. */
export async function findEarlierUpload(input: UploadTargetInput): Promise<EarlierUpload | null> {
  const [previous] = await tusUpload(input).findPreviousUploads();
  if (!previous?.uploadUrl) return null;
  const response = await fetch(previous.uploadUrl, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' }, credentials: 'same-origin' });
  const offset = Number(response.headers.get('upload-offset') ?? 0);
  const size = Number(response.headers.get('upload-length') ?? input.file.size);
  // Gone (removed after a day, another user's) or ended: nothing to continue.
  if (response.status === 404 || (response.ok && offset >= size)) {
    await forgetEarlier(input);
    return null;
  }
  return response.ok ? { offset, size } : null;
}

async function forgetEarlier(input: UploadTargetInput): Promise<void> {
  const previous = await tusUpload(input).findPreviousUploads();
  await Promise.all(previous.map((earlier) => dropEarlier(earlier, false)));
}

/** The `cancelUpload` actor: the unfinished upload of this file is dropped on the server. */
export async function cancelUpload(input: UploadTargetInput): Promise<void> {
  const previous = await tusUpload(input).findPreviousUploads();
  await Promise.all(previous.map((earlier) => dropEarlier(earlier)));
}

async function dropEarlier(previous: PreviousUpload, terminate = true): Promise<void> {
  if (terminate && previous.uploadUrl) {
    await Upload.terminate(previous.uploadUrl, { retryDelays: [0, 1_000] }).catch(() => undefined);
  }
  localStorage.removeItem(previous.urlStorageKey);
}
