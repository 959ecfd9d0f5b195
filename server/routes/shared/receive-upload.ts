// Receiving an uploaded PDF: the multipart body is streamed part by part, the file straight into
// the blob store (hashed while written, memory independent of size); over the limit the write
// fails and nothing is kept. Shared by the service-center upload and other PDF uploads.
import { createHash } from 'node:crypto';
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
  /** The stored file (the first, when several came); null when the request had no file part. */
  blob: BlobInfo | null;
  filename: string | null;
  /** Every file part of the field, in order (photos of pages come several to an upload). */
  files: ReceivedFile[];
  /** File parts of the field that came beyond `maxFiles` (drained, not stored). */
  filesOverLimit: number;
  /** SHA-256 of all the files' bytes in order, and their size in all. */
  sha256: string;
  size: number;
}

export interface ReceivedFile {
  blob: BlobInfo;
  filename: string | null;
  /** The file's first bytes: what kind of file it is. */
  head: Uint8Array;
}

/** Bytes of each file kept to tell what it is (PDF, JPEG, PNG, HEIC). */
const HEAD_BYTES = 32;

/**
 * Reads every part of a multipart request: fields as text, the one file into the blob store.
 * Throws UploadTooLargeError when the file is over `maxBytes` (nothing stored).
 */
export async function receiveUpload(
  request: FastifyRequest,
  blobStore: BlobStore,
  options: { maxBytes: number; fileField?: string; maxFiles?: number },
): Promise<ReceivedUpload> {
  // A body announced over the limit is refused before a byte of it is read.
  if (Number(request.headers['content-length']) > options.maxBytes + MULTIPART_ALLOWANCE) throw new UploadTooLargeError(options.maxBytes);
  const fileField = options.fileField ?? 'file';
  const fields: Record<string, string> = {};
  const maxFiles = options.maxFiles ?? 1;
  const files: ReceivedFile[] = [];
  let filesOverLimit = 0;
  const whole = createHash('sha256');
  let size = 0;
  let nulField: string | null = null;
  const discardAll = async () => {
    for (const file of files) await discardIfUnreferenced(request.server.db, blobStore, file.blob.key);
  };
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
      if (file.fieldname !== fileField || files.length >= maxFiles) {
        // Files beyond the limit are counted (a refusal says how many came) and drained.
        if (file.fieldname === fileField) filesOverLimit++;
        file.file.resume();
        continue;
      }
      // The limit is for all the files together.
      const left = options.maxBytes - size;
      const head: Uint8Array[] = [];
      const blob = await blobStore.put(watched(untruncated(file, options.maxBytes), whole, head), { maxBytes: left });
      size += blob.size;
      files.push({ blob, filename: file.filename, head: Buffer.concat(head).subarray(0, HEAD_BYTES) });
    }
  } catch (error) {
    // A body that failed after its files were stored (a later part cut off) keeps nothing.
    await discardAll();
    if (isTooLarge(error)) throw new UploadTooLargeError(options.maxBytes);
    const malformed = malformedMultipart(error);
    if (malformed !== null) throw validationError(malformed);
    throw error;
  }
  // Text with NUL cannot be stored (PostgreSQL refuses it): a 400, and the file is not kept.
  if (nulField !== null) {
    await discardAll();
    throw new HttpError(400, { error_type: 'VALIDATION_ERROR', message: `${nulField.replace(/\0/g, '')} must not contain NUL characters` });
  }
  const first = files[0] ?? null;
  return {
    fields,
    blob: first?.blob ?? null,
    filename: first?.filename ?? null,
    files,
    filesOverLimit,
    sha256: files.length === 1 ? first!.blob.sha256 : whole.digest('hex'),
    size,
  };
}

/** Passes a file's chunks on, hashing them into `whole` and keeping its first bytes in `head`. */
async function* watched(source: AsyncIterable<Uint8Array>, whole: ReturnType<typeof createHash>, head: Uint8Array[]): AsyncGenerator<Uint8Array> {
  let kept = 0;
  for await (const chunk of source) {
    whole.update(chunk);
    if (kept < HEAD_BYTES) {
      head.push(chunk.subarray(0, HEAD_BYTES - kept));
      kept += Math.min(chunk.length, HEAD_BYTES - kept);
    }
    yield chunk;
  }
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
  maxFiles = 1,
): Promise<ReceivedUpload> {
  const ended = startArriving(request.user?.id ?? request.ip, reply);
  try {
    return await receiveUpload(request, blobStore, { maxBytes, maxFiles });
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
