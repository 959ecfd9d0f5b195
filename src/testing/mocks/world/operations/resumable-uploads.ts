// The uploads tag's resumable uploads (tus 1.0.0): create, HEAD, PATCH, GET and DELETE as the
// server answers them. Bytes are counted, not kept. The last byte is handed to the world's own
// multipart call of its kind (uploadFile or uploadStudyHelperFile), so a finished upload shows in
// the lists as a multipart upload does, with the same refusals.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import { getUploadFileUrl } from '../../../../../generated/hooks/files/files';
import { getUploadStudyHelperFileUrl } from '../../../../../generated/hooks/study-helpers/study-helpers';
import {
  getAppendResumableUploadMockHandler,
  getCancelResumableUploadMockHandler,
  getCreateResumableUploadMockHandler,
  getGetResumableUploadMockHandler,
  getGetResumableUploadOffsetMockHandler,
} from '../../../../../generated/hooks/uploads/uploads.msw';
import { answer, json, notFound, refusal, type WorldAccess } from '../http';
import type { World } from '../world';

type S = components['schemas'];

/** Spec §9: 1.5 GB. */
const MAX_UPLOAD_BYTES = 1_500_000_000;
const TUS = { 'tus-resumable': '1.0.0' };

interface Entry {
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
const uploadsOf = new WeakMap<World, Map<string, Entry>>();

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
async function finish(entry: Entry, origin: string): Promise<void> {
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

const positionHeaders = (entry: Entry) => ({
  ...TUS,
  'upload-offset': String(entry.offset),
  'upload-length': String(entry.length),
  'cache-control': 'no-store',
  ...(entry.resultId ? { 'upload-result-id': entry.resultId } : {}),
});

/** A new upload from the creation request's headers, or why it is refused. */
function created(request: Request, id: string): Entry | Response {
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

export function resumableUploadResponders(access: WorldAccess): HttpHandler[] {
  const uploads = () => {
    const world = access.world();
    if (!uploadsOf.has(world)) uploadsOf.set(world, new Map());
    return uploadsOf.get(world)!;
  };
  const find = (id: unknown) => uploads().get(String(id));
  // Every success here carries tus headers (Location, Upload-Offset), so each answer is a whole Response.
  return [
    answer(getCreateResumableUploadMockHandler, ({ request }) => {
      const entry = created(request, (uploads().size + 1).toString(16).padStart(32, '0'));
      if (entry instanceof Response) return entry;
      uploads().set(entry.id, entry);
      // The Location is the one the contract gives this upload: the path the creation was posted to, and its id.
      return new Response(null, { status: 201, headers: { ...TUS, location: `${new URL(request.url).pathname}/${entry.id}` } });
    }),
    answer(getGetResumableUploadOffsetMockHandler, ({ params }) => {
      const entry = find(params.id);
      return entry ? new Response(null, { status: 200, headers: positionHeaders(entry) }) : new Response(null, { status: 404 });
    }),
    answer(getAppendResumableUploadMockHandler, async ({ params, request }) => {
      const entry = find(params.id);
      if (!entry) return notFound('Upload not found');
      if (entry.state !== 'receiving') return refusal(409, 'CONFLICT', 'This upload has ended.');
      if (Number(request.headers.get('upload-offset')) !== entry.offset) return refusal(409, 'OFFSET_MISMATCH', 'Upload-Offset is not where the upload stands');
      const bytes = (await request.arrayBuffer()).byteLength;
      if (entry.offset + bytes > entry.length) return refusal(413, 'FILE_TOO_LARGE', 'More bytes than Upload-Length');
      entry.offset += bytes;
      if (entry.offset === entry.length) await finish(entry, new URL(request.url).origin);
      if (entry.refusal) return json(entry.refusal.detail === undefined ? {} : { detail: entry.refusal.detail }, entry.refusal.status);
      return new Response(null, { status: 204, headers: positionHeaders(entry) });
    }),
    answer(getGetResumableUploadMockHandler, ({ params }) => {
      const entry = find(params.id);
      if (!entry) return notFound('Upload not found');
      const name = entry.fields.name ?? '';
      const { id, kind, offset, length, state, resultId: result_id, refusal: refused, created_at } = entry;
      return { id, kind, name, filename: name, offset, length, state, result_id, refusal: refused, created_at };
    }),
    answer(getCancelResumableUploadMockHandler, ({ params }) => {
      const entry = find(params.id);
      if (!entry) return notFound('Upload not found');
      if (entry.state === 'accepted') return refusal(409, 'CONFLICT', 'The upload was already handed on: it is not undone here.');
      uploads().delete(entry.id);
      return new Response(null, { status: 204, headers: TUS });
    }),
  ];
}
