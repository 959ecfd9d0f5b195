// The mock world's resumable uploads (tus 1.0.0 at /api/uploads/resumable): create, HEAD, PATCH,
// GET and DELETE as the server answers them. Bytes are counted, not kept. The last byte is handed
// to the world's own multipart call of its kind (POST /api/file or /api/study-helpers/file), so a
// finished upload shows in the lists as a multipart upload does, with the same refusals.
import { http, type RequestHandler } from 'msw';
import type { components } from '../../../../generated/api-types';
import { json, notFound, refusal, type WorldAccess } from './http';
import type { World } from './world';

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

export function resumableUploadHandlers(access: WorldAccess): RequestHandler[] {
  const uploads = () => {
    const world = access.world();
    if (!uploadsOf.has(world)) uploadsOf.set(world, new Map());
    return uploadsOf.get(world)!;
  };
  const find = (id: unknown) => uploads().get(String(id));

  /** The world's multipart call of the upload's kind, as a browser would make it. */
  async function finish(entry: Entry, origin: string): Promise<void> {
    const form = new FormData();
    for (const [key, value] of Object.entries(entry.fields)) if (value !== '') form.set(key, value);
    form.set('file', new Blob(['%PDF-'], { type: 'application/pdf' }), entry.fields.name ?? 'scan.pdf');
    const path = entry.kind === 'service_center' ? '/api/file' : '/api/study-helpers/file';
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

  return [
    http.post('*/api/uploads/resumable', ({ request }) => {
      const length = Number(request.headers.get('upload-length'));
      if (!Number.isInteger(length) || length <= 0) return refusal(400, 'VALIDATION_ERROR', 'Upload-Length must be the file size in bytes');
      if (length > MAX_UPLOAD_BYTES) return refusal(413, 'FILE_TOO_LARGE', 'File too large');
      const metadata = parseMetadata(request.headers.get('upload-metadata'));
      const kind = metadata?.kind;
      if (metadata === null || (kind !== 'service_center' && kind !== 'graded')) return refusal(400, 'VALIDATION_ERROR', 'Upload-Metadata kind must be service_center or graded');
      if ((metadata.name ?? '').trim() === '') return refusal(400, 'VALIDATION_ERROR', 'name is required');
      const { kind: _kind, filename: _filename, ...fields } = metadata;
      const id = (uploads().size + 1).toString(16).padStart(32, '0');
      uploads().set(id, { id, kind, fields, length, offset: 0, state: 'receiving', resultId: null, refusal: null, created_at: new Date().toISOString() });
      return new Response(null, { status: 201, headers: { ...TUS, location: `/api/uploads/resumable/${id}` } });
    }),
    http.head('*/api/uploads/resumable/:id', ({ params }) => {
      const entry = find(params.id);
      return entry ? new Response(null, { status: 200, headers: positionHeaders(entry) }) : new Response(null, { status: 404 });
    }),
    http.patch('*/api/uploads/resumable/:id', async ({ params, request }) => {
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
    http.get('*/api/uploads/resumable/:id', ({ params }) => {
      const entry = find(params.id);
      if (!entry) return notFound('Upload not found');
      return json<S['ResumableUpload']>({
        id: entry.id,
        kind: entry.kind,
        name: entry.fields.name ?? '',
        filename: entry.fields.name ?? '',
        offset: entry.offset,
        length: entry.length,
        state: entry.state,
        result_id: entry.resultId,
        refusal: entry.refusal,
        created_at: entry.created_at,
      });
    }),
    http.delete('*/api/uploads/resumable/:id', ({ params }) => {
      const entry = find(params.id);
      if (!entry) return notFound('Upload not found');
      if (entry.state === 'accepted') return refusal(409, 'CONFLICT', 'The upload was already handed on: it is not undone here.');
      uploads().delete(entry.id);
      return new Response(null, { status: 204, headers: TUS });
    }),
  ];
}
