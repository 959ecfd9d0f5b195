// `npm run dev:mock`: every call answered in the browser by the generated MSW handlers, signed in
// as the user chosen with `?as=admin|coordinator|view-as|user|no-group|no-email|signed-out`
// (remembered for the tab; default admin). View As switches between admin and view-as.
import { setupWorker } from 'msw/browser';
import { http, HttpResponse } from 'msw';
import type { AboutMe, ViewAsRequest } from '../../../generated/hooks/model';
import { generatedHandlers, isMockRole, meHandler, MOCK_USERS, type MockRole } from './handlers';

const STORAGE_KEY = 'mock-signed-in-as';
const DEFAULT_ROLE: MockRole = 'admin';

function currentRole(): MockRole {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  return isMockRole(stored) ? stored : DEFAULT_ROLE;
}

function rememberRoleFromAddress(): void {
  const asked = new URLSearchParams(window.location.search).get('as');
  if (isMockRole(asked)) sessionStorage.setItem(STORAGE_KEY, asked);
}

const viewAsHandler = http.post('*/api/auth/view-as', async ({ request }) => {
  const body = (await request.json()) as ViewAsRequest;
  const role: MockRole = body.congregation === null ? 'admin' : 'view-as';
  sessionStorage.setItem(STORAGE_KEY, role);
  return HttpResponse.json<AboutMe>({ ...(MOCK_USERS[role] as AboutMe) });
});

export async function startMockWorker(): Promise<void> {
  rememberRoleFromAddress();
  const worker = setupWorker(meHandler(currentRole), viewAsHandler, ...generatedHandlers());
  await worker.start({ onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
  console.info(`[mock] signed in as "${currentRole()}" (choose with ?as=${Object.keys(MOCK_USERS).join('|')})`);
}
