// A resumable upload (tus 1.0.0) as the mock world keeps it: its size, how far it got, and how it
// ended once its last byte went to the world's multipart call of its kind.
import type { components } from '../../../../../generated/api-types';
import { getUploadFileUrl } from '../../../../../generated/hooks/files/files';
import { getUploadStudyHelperFileUrl } from '../../../../../generated/hooks/study-helpers/study-helpers';
import { refusal } from '../http';
import type { World } from '../world';

type S = components['schemas'];

/** Spec §9: 1.5 GB. */
const MAX_UPLOAD_BYTES = 1_500_000_000;
export const TUS = { 'tus-resumable': '1.0.0' };

export interface Entry {
  id: string;
  kind: S['ResumableUpload']['kind'];
  fields: Record<string, string>;
  length: number;
  offset: number;
  state: S['ResumableUpload']['state'];
  resultId: string | null;
  refusal: { status: number; detail: unknown } | null;
  created_at: string;
}

/** Each world (a scenario, a reset) has its own uploads. */
export const uploadsOf = new WeakMap<World, Map<string, Entry>>();

function parseMetadata(header: string | null): Record<string, string> | null {
  const fields: Record<string, string> = {};
  try {
    for (const pair of (header ?? '').split(',').filter((item) => item.trim() !== '')) {
      const [key, value = ''] = pair.trim().split(' ');
      fields[key!] = new TextDecoder().decode(Uint8Array.from(atob(value), (char) => char.charCodeAt(0)));
    }
  } catch {
    return null;
  }
  return fields;
}

/** The world's multipart call of the upload's kind, as a browser would make it. */
export async function finish(entry: Entry, origin: string): Promise<void> {
  const form = new FormData();
  for (const [key, value] of Object.entries(entry.fields)) if (value !== '') form.set(key, value);
  form.set('file', new Blob(['%PDF-'], { type: 'application/pdf' }), entry.fields.name ?? 'scan.pdf');
  const path = entry.kind === 'service_center' ? getUploadFileUrl() : getUploadStudyHelperFileUrl();
  const answer = await fetch(new URL(path, origin), { method: 'POST', body: form });
  const body = (await answer.json()) as { id?: string; status?: string; errorType?: string; detail?: unknown };
  if (answer.ok && body.status !== 'error') {
    entry.state = 'accepted';
    entry.resultId = body.id ?? null;
  } else {
    entry.state = 'refused';
    entry.refusal = answer.ok
      ? { status: 409, detail: { error_type: body.errorType ?? 'DUPLICATE_FILE', message: 'This file has already been uploaded.' } }
      : { status: answer.status, detail: body.detail };
  }
}

export const positionHeaders = (entry: Entry) => ({
  ...TUS,
  'upload-offset': String(entry.offset),
  'upload-length': String(entry.length),
  'cache-control': 'no-store',
  ...(entry.resultId ? { 'upload-result-id': entry.resultId } : {}),
});

/** A new upload from the creation request's headers, or why it is refused. */
export function created(request: Request, id: string): Entry | Response {
  const length = Number(request.headers.get('upload-length'));
  if (!Number.isInteger(length) || length <= 0) return refusal(400, 'VALIDATION_ERROR', 'Upload-Length must be the file size in bytes');
  if (length > MAX_UPLOAD_BYTES) return refusal(413, 'FILE_TOO_LARGE', 'File too large');
  const metadata = parseMetadata(request.headers.get('upload-metadata'));
  const kind = metadata?.kind;
  if (metadata === null || (kind !== 'service_center' && kind !== 'graded')) return refusal(400, 'VALIDATION_ERROR', 'Upload-Metadata kind must be service_center or graded');
  if ((metadata.name ?? '').trim() === '') return refusal(400, 'VALIDATION_ERROR', 'name is required');
  const { kind: _kind, filename: _filename, ...fields } = metadata;
  return { id, kind, fields, length, offset: 0, state: 'receiving', resultId: null, refusal: null, created_at: new Date().toISOString() };
}

