// The mock world served over MSW: one object holding the world of the chosen scenario and every
// handler of the contract over it, shared by `npm run dev:mock` (browser worker) and the web tests
// (msw/node). Scenarios: default (a small programme), empty (no records: only the countries, the
// courses and the signed-in coordinator's congregation), busy (hundreds of files and students, six
// still processing), errors (the default world, but every change is refused with the spec's
// errors and every job fails).
import { http, type RequestHandler } from 'msw';
import { getAuthCallbackMockHandler, getLoginMockHandler, getLogoutMockHandler } from '../../../../generated/hooks/auth/auth.msw';
import type { AboutMe, ViewAsRequest } from '../../../../generated/hooks/model';
import { getResolveQrCodeMockHandler } from '../../../../generated/hooks/qr/qr.msw';
import { meHandler, MOCK_USERS, type MockRole } from '../handlers';
import { packetHandlers, fileHandlers } from './file-handlers';
import { resumableUploadHandlers } from './resumable-handlers';
import { json, refusal, type WorldAccess } from './http';
import { mailHandlers } from './mail-handlers';
import { peopleHandlers } from './people-handlers';
import type { Viewer } from './views';
import { seedWorld, type Scenario, type World } from './world';

export { isScenario, SCENARIOS, type Scenario } from './world';

export interface MockWorld {
  handlers: RequestHandler[];
  /** The world's rows as they are now. */
  world(): World;
  /** Starts the scenario's world again from its seed. */
  reset(scenario?: Scenario): void;
}

export interface MockWorldOptions {
  scenario: Scenario;
  /** The mock user asking, at the time of each request. */
  role: () => MockRole;
  /** Called when the user switches with View As (the role to play from then on). */
  onViewAs: (role: MockRole) => void;
  progressIntervalMs?: number;
}

/** null for a scanning admin (sees everything), else the congregation acted for ('' for none). */
function viewerOf(role: MockRole): Viewer {
  const user = MOCK_USERS[role];
  if (user === null) return '';
  return user.role === 'scanning_admin' ? null : user.congregation;
}

/** In the errors scenario: how each change is refused (spec §8's types). */
function refusedChange(request: Request): Response | undefined {
  const path = new URL(request.url).pathname;
  if (request.method === 'GET' || path.startsWith('/api/auth/')) return undefined;
  if (path === '/api/file' || path === '/api/study-helpers/file') return refusal(409, 'DUPLICATE_FILE', 'This file has already been uploaded.');
  if (request.method === 'POST' && !/\/(send|archive|regenerate|baptism-request)$/.test(path)) {
    return refusal(400, 'VALIDATION_ERROR', 'The request was refused (errors scenario).');
  }
  return refusal(500, 'SERVER_ERROR', 'Server error (errors scenario).');
}

export function createMockWorld(options: MockWorldOptions): MockWorld {
  let current = seedWorld(options.scenario);
  let scenario = options.scenario;
  const access: WorldAccess = {
    world: () => current,
    viewer: () => viewerOf(options.role()),
    userEmail: () => MOCK_USERS[options.role()]?.email ?? '',
    userRole: () => MOCK_USERS[options.role()]?.role ?? null,
    progressIntervalMs: options.progressIntervalMs ?? 400,
  };
  const gate = http.all('*', ({ request }) => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith('/api/')) return undefined;
    if (MOCK_USERS[options.role()] === null && !path.startsWith('/api/auth/')) return json({ detail: 'Not signed in' }, 401);
    return current.scenario === 'errors' ? refusedChange(request) : undefined;
  });
  const viewAs = http.post('*/api/auth/view-as', async ({ request }) => {
    const body = (await request.json()) as ViewAsRequest;
    const role: MockRole = body.congregation === null ? 'admin' : 'view-as';
    options.onViewAs(role);
    return json<AboutMe>({ ...(MOCK_USERS[role] as AboutMe) });
  });
  return {
    handlers: [
      gate,
      meHandler(options.role),
      viewAs,
      ...fileHandlers(access),
      ...resumableUploadHandlers(access),
      ...packetHandlers(access),
      ...mailHandlers(access),
      ...peopleHandlers(access, (world) => {
        current = world;
      }),
      // Redirects with no body, the same every time.
      getLoginMockHandler(),
      getAuthCallbackMockHandler(),
      getLogoutMockHandler(),
      getResolveQrCodeMockHandler(),
    ],
    world: () => current,
    reset(next = scenario) {
      scenario = next;
      current = seedWorld(next);
    },
  };
}
