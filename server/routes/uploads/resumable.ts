// Resumable uploads (tus 1.0.0, core + creation + termination) at /api/uploads/resumable, served
// by @tus/server with its parts on disk or in object storage (server/workflow/resumable-parts.ts). Each call is first
// a plain route: the session, same-origin rule and roles of the multipart call of its kind, and
// the upload's owner (another user's upload is unknown: 404); only then does tus see it. The PATCH
// that brings the last byte hands the file to that multipart call's own code (same checks, job,
// report, duplicate rule), and the outcome is kept: HEAD and PATCH name the new id in
// Upload-Result-Id, GET gives the whole outcome to a client that lost that answer.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer } from '@tus/server';
import { Metadata } from '@tus/utils';
import type { BlobInfo, BlobStore } from '../../blob-store';
import { forbidden, HttpError, notFound, validationError } from '../../http-error';
import { requireUser, type SessionUser } from '../../auth/session';
import type { ReplyOf, Route } from '../../contract/types';
import { MAX_UPLOAD_BYTES } from '../../jobs/job-types';
import {
  claimResumableUploadToFinish,
  deleteResumableUpload,
  insertResumableUpload,
  markResumableUploadAccepted,
  markResumableUploadRefused,
  reopenResumableUpload,
  resumableUploadById,
  resumableUploadOfUser,
  touchResumableUpload,
  type ResumableUploadRow,
} from '../../repositories/resumable-uploads';
import { resumableParts, STALE_FINISH_MINUTES, storeParts } from '../../workflow/resumable-parts';
import { kindOfFile } from '../shared/photo-check';
import { fileTooLarge } from '../shared/receive-upload';
import type { UploadedPhoto } from '../shared/uploaded-pages';
import { startArriving } from '../shared/uploads-arriving';
import { acceptServiceCenterFile, uploadFieldsProblem } from '../files';
import { acceptGradedUpload, gradedUploadTarget } from '../study-helpers';

const BASE = '/api/uploads/resumable';
const TUS_VERSION = '1.0.0';
const UPLOAD_NOT_FOUND = 'Upload not found';
const PARTS_TYPE = 'application/offset+octet-stream';

export interface ResumableUploadOptions {
  /** Upload-Length limit; spec §9: 1.5 GB (tests use less). */
  maxUploadBytes?: number;
}

export function createResumableUploadRoutes(options: ResumableUploadOptions = {}) {
  const maxBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  return async function resumableUploadRoutes(app: FastifyInstance) {
    const db = app.db;
    const parts = resumableParts(app.blobStore, app.config);
    const datastore = parts.datastore;
    const tus = new TusServer({ path: BASE, datastore, relativeLocation: true, maxSize: maxBytes });

    // The parts stream to disk as they arrive: Fastify must leave the body unread for tus.
    app.addContentTypeParser(PARTS_TYPE, (_request, _payload, done) => done(null));

    /** The caller's upload (404 for a missing one and for another user's). */
    const uploadOf = async (request: FastifyRequest, id: string): Promise<ResumableUploadRow> => {
      const user = requireUser(request);
      const row = await resumableUploadOfUser(db, id, user.id);
      if (row === null) throw notFound(UPLOAD_NOT_FOUND);
      return row;
    };

    /**
     * The last byte arrived: the parts become a blob and go through the multipart call's code.
     * One process finishes an upload (the claim); the outcome is kept either way.
     */
    const finish = async (request: FastifyRequest, user: SessionUser, id: string): Promise<ResumableUploadRow> => {
      const claimed = await claimResumableUploadToFinish(db, id, STALE_FINISH_MINUTES);
      if (claimed === null) return resumableUploadById(db, id);
      try {
        if (claimed.kind === 'service_center' && user.role !== 'scanning_admin') throw forbidden();
        const blob = await storeParts(parts, id, app.blobStore, maxBytes);
        const fields = { ...claimed.fields };
        const photos = await photoOfPage(app.blobStore, blob, claimed.filename);
        const resultId =
          claimed.kind === 'service_center'
            ? await acceptServiceCenterFile(request, user, fields, blob, photos)
            : await acceptGradedUpload(request, user, fields, blob, photos);
        await parts.remove(id);
        return await markResumableUploadAccepted(db, id, resultId);
      } catch (error) {
        if (!(error instanceof HttpError)) {
          // Not a refusal (storage, database): left as received, so the next HEAD or GET tries again.
          await reopenResumableUpload(db, id);
          throw error;
        }
        await parts.remove(id);
        return markResumableUploadRefused(db, id, { status: error.statusCode, detail: error.detail });
      }
    };

    /** The outcome of a finished upload as the multipart call would have answered a refusal. */
    const refusalOf = (row: ResumableUploadRow): HttpError | null =>
      row.state === 'refused' && row.refusal !== null ? new HttpError(row.refusal.status, row.refusal.detail) : null;

    const finishedHeaders = (reply: FastifyReply, row: ResumableUploadRow) => {
      reply.header('tus-resumable', TUS_VERSION).header('upload-offset', String(row.length)).header('upload-length', String(row.length));
      if (row.result_id !== null) reply.header('upload-result-id', row.result_id);
    };

    app.post<Route<'createResumableUpload'>>('/api/uploads/resumable', async (request, reply) => {
      const user = requireUser(request);
      requireTusVersion(request);
      if (request.headers['content-type']?.startsWith(PARTS_TYPE)) throw validationError('Send the bytes with PATCH after the upload is created');
      const length = lengthOf(request.headers['upload-length']);
      if (length > maxBytes) {
        reply.header('connection', 'close');
        throw fileTooLarge();
      }
      let metadata: Record<string, string | null>;
      try {
        metadata = Metadata.parse(headerText(request.headers['upload-metadata']));
      } catch {
        throw validationError('Upload-Metadata must be comma-separated "key base64value" pairs');
      }
      const fields = fieldsOf(metadata);
      // Text with NUL cannot be stored (PostgreSQL refuses it), as in the multipart calls.
      const nul = Object.keys(fields).find((key) => fields[key]!.includes('\0'));
      if (nul !== undefined) throw validationError(`${nul} must not contain NUL characters`);
      const kind = metadata.kind;
      if (kind === 'service_center') {
        if (user.role !== 'scanning_admin') throw forbidden();
        const problem = uploadFieldsProblem(fields, true);
        if (problem !== null) throw validationError(problem);
      } else if (kind === 'graded') {
        await gradedUploadTarget(db, user, fields);
      } else {
        throw validationError('Upload-Metadata kind must be service_center or graded');
      }

      const response = await tus.handleWeb(webRequest(request));
      const location = response.headers.get('location');
      if (response.status !== 201 || location === null) return relay(reply, response);
      const id = location.split('/').at(-1) ?? '';
      try {
        await insertResumableUpload(db, { id, userId: user.id, kind, fields, filename: (metadata.filename ?? fields.name ?? '').trim(), length });
      } catch (error) {
        await parts.remove(id);
        throw error;
      }
      return relay(reply, response);
    });

    // Declared before the GET of the same path, which would otherwise answer HEAD itself.
    app.head<Route<'getResumableUploadOffset'>>('/api/uploads/resumable/:id', async (request, reply) => {
      const row = await uploadOf(request, request.params.id);
      reply.header('cache-control', 'no-store');
      if (row.state !== 'receiving') {
        finishedHeaders(reply, row);
        return reply.code(200).send();
      }
      return relay(reply, await tus.handleWeb(webRequest(request)));
    });

    app.patch<Route<'appendResumableUpload'>>('/api/uploads/resumable/:id', async (request, reply) => {
      const user = requireUser(request);
      requireTusVersion(request);
      const row = await uploadOf(request, request.params.id);
      if (!request.headers['content-type']?.startsWith(PARTS_TYPE)) throw validationError(`Content-Type must be ${PARTS_TYPE}`);
      if (row.state !== 'receiving') throw new HttpError(409, { error_type: 'CONFLICT', message: 'This upload has ended.' });
      await touchResumableUpload(db, row.id);
      const ended = startArriving(user.id, reply);
      let response: Response;
      try {
        response = await tus.handleWeb(webRequest(request));
      } finally {
        ended();
      }
      if (response.status !== 204 || Number(response.headers.get('upload-offset')) !== Number(row.length)) return relay(reply, response);
      const finished = await finish(request, user, row.id);
      const refusal = refusalOf(finished);
      if (refusal !== null) throw refusal;
      finishedHeaders(reply, finished);
      return reply.code(204).send();
    });

    app.get<Route<'getResumableUpload'>>('/api/uploads/resumable/:id', { exposeHeadRoute: false }, async (request): Promise<ReplyOf<'getResumableUpload'>> => {
      const user = requireUser(request);
      let row = await uploadOf(request, request.params.id);
      let offset = Number(row.length);
      if (row.state === 'receiving' || row.state === 'finishing') {
        offset = (await datastore.getUpload(row.id).catch(() => null))?.offset ?? 0;
        // The last byte arrived but was never handed on (the server stopped): hand it on now.
        if (offset === Number(row.length)) row = await finish(request, user, row.id);
      }
      return {
        id: row.id,
        kind: row.kind,
        name: row.fields.name ?? '',
        filename: row.filename,
        offset,
        length: Number(row.length),
        state: row.state,
        result_id: row.result_id,
        refusal: row.refusal,
        created_at: new Date(row.created_at).toISOString(),
      };
    });

    app.delete<Route<'cancelResumableUpload'>>('/api/uploads/resumable/:id', async (request, reply) => {
      requireTusVersion(request);
      const row = await uploadOf(request, request.params.id);
      if (row.state === 'accepted' || row.state === 'finishing') {
        throw new HttpError(409, { error_type: 'CONFLICT', message: 'The upload was already handed on: it is not undone here.' });
      }
      if (row.state === 'receiving') {
        const response = await tus.handleWeb(webRequest(request));
        if (response.status >= 400 && response.status !== 404 && response.status !== 410) return relay(reply, response);
      }
      await parts.remove(row.id);
      await deleteResumableUpload(db, row.id);
      return reply.code(204).header('tus-resumable', TUS_VERSION).send();
    });
  };
}

export const resumableUploadRoutes = createResumableUploadRoutes();

/** The Fastify request as the web Request @tus/server reads: the body streamed, never buffered. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = request.method === 'PATCH';
  return new Request(new URL(request.url, 'http://localhost'), {
    method: request.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Sends tus's answer through Fastify (its hooks add the usual headers); errors in the spec's shape. */
async function relay(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  const text = (await response.text()).trim();
  if (response.status >= 400) throw tusRefusal(response.status, text);
  for (const [name, value] of response.headers) {
    // Same origin only: tus's CORS headers say nothing true here.
    if (!/^(access-control-|content-length$|connection$)/.test(name)) reply.header(name, value);
  }
  return reply.code(response.status).send();
}

function tusRefusal(status: number, text: string): Error {
  switch (status) {
    case 404:
    case 410:
      return notFound(UPLOAD_NOT_FOUND);
    case 409:
      return new HttpError(409, { error_type: 'OFFSET_MISMATCH', message: text || 'Upload-Offset is not where the upload stands' });
    case 413:
      return fileTooLarge();
    case 400:
    case 403:
      // tus answers a missing Upload-Offset or a wrong Content-Type with 403: bad input all the same.
      return validationError(text || 'Invalid tus request');
    case 500:
      // tus cannot read the parts it was given (they were removed, or never written): start again.
      return notFound('The bytes of this upload are no longer on the server: start the upload again.');
    default:
      return new Error(`tus answered ${status}: ${text}`);
  }
}

function requireTusVersion(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== TUS_VERSION) {
    throw new HttpError(412, { error_type: 'TUS_VERSION', message: `Tus-Resumable must be ${TUS_VERSION}` });
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function lengthOf(value: string | string[] | undefined): number {
  const text = headerText(value);
  if (text === undefined) throw validationError('Upload-Length is required (the file size in bytes)');
  if (!/^\d+$/.test(text)) throw validationError('Upload-Length must be a whole number of bytes');
  const length = Number(text);
  if (length === 0) throw validationError('The file is empty.');
  return length;
}

/** The multipart call's fields from the tus metadata (kind and filename are the upload's own). */
function fieldsOf(metadata: Record<string, string | null>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of ['name', 'answer_sheet_page_length', 'scanned_at', 'study_helper']) {
    const value = metadata[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/** A resumable upload that is one photo of a page is taken as photos are (a PDF or anything else: null). */
async function photoOfPage(blobStore: BlobStore, blob: BlobInfo, filename: string): Promise<UploadedPhoto[] | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobStore.createReadStream(blob.key, { start: 0, end: 31 })) chunks.push(chunk as Buffer);
  const kind = kindOfFile(new Uint8Array(Buffer.concat(chunks)));
  return kind === 'pdf' || kind === 'other' ? null : [{ blob, filename, mediaType: kind }];
}
