// Sends a stored blob as an HTTP response, streamed (a 1.5 GB original never sits in memory),
// or a PDF drawn for the request. Blobs are content-addressed, so the key is a perfect ETag.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../blob-store';
import { notFound } from '../../http-error';

export interface BlobResponseOptions {
  contentType: string;
  cacheControl?: string;
  /** Sends Content-Disposition: attachment with this file name. */
  downloadName?: string;
  /** Answer 304 to a matching If-None-Match (images). */
  conditional?: boolean;
}

export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blobStore: BlobStore,
  key: string,
  options: BlobResponseOptions,
): Promise<FastifyReply> {
  const info = await blobStore.stat(key);
  if (info === null) throw notFound('The stored file is missing');
  const etag = `"${key}"`;
  reply.header('etag', etag);
  if (options.cacheControl) reply.header('cache-control', options.cacheControl);
  if (options.conditional && request.headers['if-none-match'] === etag) return reply.code(304).send();
  reply.type(options.contentType);
  reply.header('content-length', info.size);
  if (options.downloadName !== undefined) reply.header('content-disposition', contentDisposition(options.downloadName));
  return reply.send(blobStore.createReadStream(key));
}

/** attachment; filename="<ASCII fallback>"; filename*=UTF-8''<exact name> (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A download name for a file: its name with .pdf (once), without path separators. */
export function pdfName(name: string, fallback: string): string {
  // Path separators and control characters never belong in a download name.
  const base = [...name].map((ch) => (ch === '/' || ch === '\\' || ch.charCodeAt(0) < 0x20 ? ' ' : ch)).join('').trim() || fallback;
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

/** A PDF drawn for this request, sent as a download that is never cached. */
export function sendPdf(reply: FastifyReply, pdf: Uint8Array, filename: string): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition(filename))
    .header('cache-control', 'private, no-cache')
    .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
}
