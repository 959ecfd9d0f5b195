// How list calls narrow to the caller's congregation: an admin sees every congregation (and may
// filter by one); a coordinator sees its own, and naming another congregation is refused.
import type { FastifyRequest } from 'fastify';
import { congregationScope } from '../../auth/session';
import { forbidden } from '../../http-error';

/**
 * The congregation a list must be limited to, or null for "all" (an admin without a filter).
 * `requested` is the caller's congregation filter, if it sent one.
 */
export function listCongregation(request: FastifyRequest, requested: string | undefined): string | null {
  const scope = congregationScope(request);
  if (scope === null) return requested ?? null;
  if (requested !== undefined && requested !== scope) throw forbidden();
  return scope;
}
