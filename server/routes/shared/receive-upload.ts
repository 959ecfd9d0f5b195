// Receiving an uploaded PDF: the multipart body is streamed part by part, the file straight into
// the blob store (hashed while written, memory independent of size); over the limit the write
// fails and nothing is kept. Shared by the service-center upload and other PDF uploads.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { BlobTooLargeError, type BlobInfo, type BlobStore } from '../../blob-store';
import { discardIfUnreferenced } from '../../db/blob-references';
import { HttpError, validationError } from '../../http-error';
import { startArriving } from './uploads-arriving';

export class UploadTooLargeError extends Error {
  constructor(public readonly limit: number) {
    super(`File larger than ${limit} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

/** 413 {"detail": {"error_type": "FILE_TOO_LARGE", "message": "File too large"}}. */
export function fileTooLarge(): HttpError {
  return new HttpError(413, { error_type: 'FILE_TOO_LARGE', message: 'File too large' });
}

/** Room in a multipart body for its boundaries, part headers and text fields besides the file. */
const MULTIPART_ALLOWANCE = 2 * 1024 * 1024;

export interface ReceivedUpload {
  fields: Record<string, string>;
  /** The stored file; null when the request had no file part. */
  blob: BlobInfo | null;
  filename: string | null;
}

/**
 * Reads every part of a multipart request: fields as text, the one file into the blob store.
 * Throws UploadTooLargeError when the file is over `maxBytes` (nothing stored).
 */
export async function receiveUpload(
  request: FastifyRequest,
  blobStore: BlobStore,
  options: { maxBytes: number; fileField?: string },
): Promise<ReceivedUpload> {
  // A body announced over the limit is refused before a byte of it is read.
  if (Number(request.headers['content-length']) > options.maxBytes + MULTIPART_ALLOWANCE) throw new UploadTooLargeError(options.maxBytes);
  const fileField = options.fileField ?? 'file';
  const fields: Record<string, string> = {};
  let blob: BlobInfo | null = null;
  let filename: string | null = null;
  let nulField: string | null = null;
  try {
    for await (const part of request.parts() as AsyncIterableIterator<Multipart>) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' || typeof part.value === 'number' || typeof part.value === 'boolean') {
          fields[part.fieldname] = String(part.value);
          if (fields[part.fieldname]?.includes('\0') || part.fieldname.includes('\0')) nulField ??= part.fieldname;
        }
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== fileField || blob !== null) {
        // Only one file is read; others are drained so the request can finish.
        file.file.resume();
        continue;
      }
      filename = file.filename;
      blob = await blobStore.put(untruncated(file, options.maxBytes), { maxBytes: options.maxBytes });
    }
  } catch (error) {
    // A body that failed after its file was stored (a later part cut off) keeps nothing.
    if (blob !== null) await discardIfUnreferenced(request.server.db, blobStore, blob.key);
    if (isTooLarge(error)) throw new UploadTooLargeError(options.maxBytes);
    const malformed = malformedMultipart(error);
    if (malformed !== null) throw validationError(malformed);
    throw error;
  }
  // Text with NUL cannot be stored (PostgreSQL refuses it): a 400, and the file is not kept.
  if (nulField !== null) {
    if (blob !== null) await discardIfUnreferenced(request.server.db, blobStore, blob.key);
    throw new HttpError(400, { error_type: 'VALIDATION_ERROR', message: `${nulField.replace(/\0/g, '')} must not contain NUL characters` });
  }
  return { fields, blob, filename };
}

/** Parser errors of busboy (@fastify/multipart's parser) that mean the body is not well-formed. */
const MALFORMED_MULTIPART = /^Multipart: |multipart data|Malformed|Unexpected end of (form|file)/i;

/** Why a multipart body is refused as bad input, or null when the error is not about the body. */
function malformedMultipart(error: unknown): string | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') return 'The request has too many parts';
  if (code === 'FST_MP_PREMATURE_CLOSE') return 'The request ended before its multipart body did';
  if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_JSON_FIELD_ERROR') return 'A part of the multipart body is not allowed';
  if (typeof message === 'string' && MALFORMED_MULTIPART.test(message)) return `The multipart body is malformed (${message})`;
  return null;
}

function isTooLarge(error: unknown): boolean {
  if (error instanceof BlobTooLargeError || error instanceof UploadTooLargeError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'FST_REQ_FILE_TOO_LARGE';
}

/**
 * busboy stops a file at the size limit and marks it truncated rather than failing it: fail the
 * write at the end instead, so the blob store removes its partial file.
 */
async function* untruncated(part: MultipartFile, limit: number): AsyncGenerator<Uint8Array> {
  for await (const chunk of part.file) yield chunk as Uint8Array;
  if (part.file.truncated) throw new UploadTooLargeError(limit);
}

/**
 * receiveUpload for a route: over the limit answers 413 (and closes the connection, since the
 * client may still be sending), a body that is not multipart answers 400.
 */
export async function receiveUploadOrRefuse(
  request: FastifyRequest,
  reply: FastifyReply,
  blobStore: BlobStore,
  maxBytes: number,
): Promise<ReceivedUpload> {
  const ended = startArriving(request.user?.id ?? request.ip, reply);
  try {
    return await receiveUpload(request, blobStore, { maxBytes });
  } catch (error) {
    if (error instanceof UploadTooLargeError) {
      reply.header('connection', 'close');
      throw fileTooLarge();
    }
    if ((error as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw validationError('The request must be multipart/form-data');
    throw error;
  } finally {
    ended();
  }
}
