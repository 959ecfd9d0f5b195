// Slow clients: a request body that stops arriving ends the request. While a body is read, its
// connection may stay silent BODY_TIMEOUT_SECONDS at most; then the socket is closed, the body's
// stream fails, and what was being written (an upload's temporary file) is removed by its writer.
// Headers have their own limit (Node's headersTimeout, set where the server is made).
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a client may take to send all of its request headers. */
export const HEADERS_TIMEOUT_MS = 30_000;

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function closeSilentBodies(app: FastifyInstance, idleMs: number): void {
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    const socket: unknown = raw.socket;
    // Requests made in-process (app.inject: the embedded sign-in's token calls, tests) have no socket.
    if (!(socket instanceof Socket) || !hasBody(raw.headers) || raw.complete) return;
    // Inactivity of the socket: no byte from the client (the server writes nothing meanwhile).
    // Node closes a socket whose timeout nobody handles; the body's readers then see it fail.
    const onTimeout = () => {
      request.log.warn({ idleMs }, 'request body stopped arriving: connection closed');
      socket.destroy();
    };
    socket.setTimeout(idleMs);
    socket.once('timeout', onTimeout);
    const done = () => {
      socket.setTimeout(0);
      socket.off('timeout', onTimeout);
    };
    raw.once('end', done);
    raw.once('close', done);
  });
}
