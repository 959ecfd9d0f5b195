// Uploads one user may be sending to this process at once, multipart bodies and resumable PATCHes
// alike: a slow or hostile client cannot hold many connections and temporary files open (each
// still ends when its body stops arriving).
import type { FastifyReply } from 'fastify';
import { HttpError } from '../../http-error';

export const MAX_UPLOADS_PER_USER = 3;
export const TOO_MANY_UPLOADS_MESSAGE = `You are already sending ${MAX_UPLOADS_PER_USER} uploads. Try again when one of them has arrived.`;

/** Uploads whose body is arriving now, by sender (user id, or address before sign-in). */
const arriving = new Map<string, number>();

/**
 * Counts a body that starts arriving from `sender`, or refuses it with 429 TOO_MANY_UPLOADS
 * without reading it. Call the returned function once the body has ended, however it ended.
 */
export function startArriving(sender: string, reply: FastifyReply): () => void {
  const sending = arriving.get(sender) ?? 0;
  if (sending >= MAX_UPLOADS_PER_USER) {
    // The body is not read: the client may still be sending it.
    reply.header('connection', 'close').header('retry-after', '30');
    throw new HttpError(429, { error_type: 'TOO_MANY_UPLOADS', message: TOO_MANY_UPLOADS_MESSAGE });
  }
  arriving.set(sender, sending + 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    const left = (arriving.get(sender) ?? 1) - 1;
    if (left === 0) arriving.delete(sender);
    else arriving.set(sender, left);
  };
}
