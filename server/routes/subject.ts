// The caller as the contract's access rules see it: the session user with View As applied.
import type { FastifyRequest } from 'fastify';
import type { AccessSubject } from '../contract/access';

export function effectiveSubject(request: FastifyRequest): AccessSubject | null {
  const user = request.user;
  if (!user) return null;
  return { role: user.role, congregation_id: user.congregation_id, is_admin: user.is_admin };
}
