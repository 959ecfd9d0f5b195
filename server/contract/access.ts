// Who may call an operation, from its x-access in the contract. Data scoping (a coordinator
// sees only its own congregation's rows) is the route's job; this is the first gate.
import type { Access } from './contract';
import type { Schemas } from './types';

export type Role = Schemas['Role'];

/** The caller as every call sees it (View As already applied). */
export interface AccessSubject {
  role: Role;
  congregation_id: string | null;
  is_admin: boolean;
}

export function canAccess(access: Access, subject: AccessSubject | null): 200 | 401 | 403 {
  if (access === 'public') return 200;
  if (!subject) return 401;
  switch (access) {
    case 'user':
      return 200;
    case 'congregation':
      return subject.role === 'scanning_admin' || subject.congregation_id ? 200 : 403;
    case 'admin':
      return subject.role === 'scanning_admin' ? 200 : 403;
  }
}
