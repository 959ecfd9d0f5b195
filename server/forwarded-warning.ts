// Behind a reverse proxy every request comes from the proxy's address, so the sign-in limits
// (counted per client address) would slow everyone together. X-Forwarded-For on a request while
// TRUST_PROXY is unset is the sign of it: said once in the log, with what to set.
import type { FastifyInstance } from 'fastify';

export const FORWARDED_WARNING =
  'requests arrive with X-Forwarded-For but TRUST_PROXY is unset: every client behind the proxy counts as the proxy\'s address for the sign-in limits; set TRUST_PROXY to the number of proxies in front';

export function warnOfForwardedRequests(app: FastifyInstance): void {
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    app.log.warn({ proxy: request.socket.remoteAddress }, FORWARDED_WARNING);
  });
}
