// Who is signed in (GET /api/auth/me) and what that lets them see: the access rules of spec §2
// ("Access screens") and §6, as pure functions, plus the context the signed-in screens read.
import { createContext, useContext } from 'react';
import type { AboutMe } from '../../generated/hooks/model';
import { ApiError } from './api-client';

export type CurrentUser = AboutMe;

/**
 * What the app shows a visitor:
 * - `sign-in`: nobody is signed in (about-me answers 401): the login landing;
 * - `unauthorised`: a user without an e-mail, or refused (403);
 * - `no-group`: a standard_user without a congregation: "No Group Assigned" blocks all content;
 * - `error`: about-me failed otherwise (server down...);
 * - `app`: the app itself.
 */
export type Access = 'sign-in' | 'unauthorised' | 'no-group' | 'error' | 'app';

export function accessFor(user: CurrentUser | undefined, error: unknown): Access {
  if (error) {
    if (error instanceof ApiError && error.status === 401) return 'sign-in';
    if (error instanceof ApiError && error.status === 403) return 'unauthorised';
    return 'error';
  }
  if (!user) return 'sign-in';
  if (!user.email) return 'unauthorised';
  if (user.role === 'standard_user' && !hasCongregation(user)) return 'no-group';
  return 'app';
}

export function isScanningAdmin(user: Pick<CurrentUser, 'role'>): boolean {
  return user.role === 'scanning_admin';
}

/** The congregation id is the empty string when the user has none. */
export function hasCongregation(user: Pick<CurrentUser, 'congregation'>): boolean {
  return Boolean(user.congregation);
}

/** The account menu's title: "Admin" for a scanning_admin, otherwise the congregation's wbs_code. */
export function accountMenuTitle(user: CurrentUser, congregationWbsCode?: string): string {
  if (isScanningAdmin(user)) return 'Admin';
  return user.wbs_code || congregationWbsCode || '';
}

export const CurrentUserContext = createContext<CurrentUser | null>(null);

/** The signed-in user; only inside the access gate, where a user is certain. */
export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser() is used outside the signed-in app');
  return user;
}
