// The auth tag (spec §7 "Auth"): who is signed in (the mock user of the moment, or nobody: 401),
// View As switching between the admin and the admin acting for a congregation, and the sign-in
// redirects, which carry no body and are the same every time.
import { HttpResponse, type HttpHandler } from 'msw';
import {
  getAuthCallbackMockHandler,
  getGetMeMockHandler,
  getLoginMockHandler,
  getLogoutMockHandler,
  getSetViewAsMockHandler,
  getShowLogoutPageMockHandler,
} from '../../../../../generated/hooks/auth/auth.msw';
import type { AboutMe, ViewAsRequest } from '../../../../../generated/hooks/model';
import { MOCK_USERS, type MockRole } from '../../handlers';
import { answer, json } from '../http';

export function authResponders(role: () => MockRole, onViewAs: (role: MockRole) => void): HttpHandler[] {
  return [
    answer(getGetMeMockHandler, () => {
      const user = MOCK_USERS[role()];
      return user === null ? json({ detail: 'Not signed in' }, 401) : { ...user };
    }),
    answer(getSetViewAsMockHandler, async ({ request }) => {
      const body = (await request.json()) as ViewAsRequest;
      const next: MockRole = body.congregation === null ? 'admin' : 'view-as';
      onViewAs(next);
      return { ...(MOCK_USERS[next] as AboutMe) };
    }),
    getLoginMockHandler(),
    getAuthCallbackMockHandler(),
    // The page whose button posts the sign-out (text/html, which the generated handler cannot send).
    answer(getShowLogoutPageMockHandler, () =>
      HttpResponse.html('<form method="post"><button type="submit">Log Out</button></form>'),
    ),
    getLogoutMockHandler(),
  ];
}
