// The uploads tag's resumable uploads (tus 1.0.0): create, HEAD, PATCH, GET and DELETE as the
// server answers them. Bytes are counted, not kept. The last byte is handed to the world's own
// multipart call of its kind (uploadFile or uploadStudyHelperFile), so a finished upload shows in
// the lists as a multipart upload does, with the same refusals.
import type { HttpHandler } from 'msw';
import {
  getAppendResumableUploadMockHandler,
  getCancelResumableUploadMockHandler,
  getCreateResumableUploadMockHandler,
  getGetResumableUploadMockHandler,
  getGetResumableUploadOffsetMockHandler,
} from '../../../../../generated/hooks/uploads/uploads.msw';
import { answer, json, notFound, refusal, type WorldAccess } from '../http';
import { created, finish, positionHeaders, TUS, uploadsOf } from './tus-uploads';

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
