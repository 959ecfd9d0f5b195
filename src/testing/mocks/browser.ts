// `npm run dev:mock`: every call answered in the browser by the mock world (./world), signed in as
// the user chosen with `?as=admin|coordinator|view-as|user|no-group|no-email|signed-out` and in the
// world chosen with `?scenario=default|empty|busy|errors` (both remembered for the tab; defaults
// admin and default). View As switches between admin and view-as. A reload starts the world again
// from its seed: changes last until then.
import { setupWorker } from 'msw/browser';
import { isMockRole, MOCK_USERS, type MockRole } from './handlers';
import { createMockWorld, isScenario, SCENARIOS, type Scenario } from './world';

const ROLE_KEY = 'mock-signed-in-as';
const SCENARIO_KEY = 'mock-scenario';

function remembered<T extends string>(key: string, param: string, accepts: (value: string | null) => value is T, fallback: T): T {
  const asked = new URLSearchParams(window.location.search).get(param);
  if (accepts(asked)) sessionStorage.setItem(key, asked);
  const stored = sessionStorage.getItem(key);
  return accepts(stored) ? stored : fallback;
}

export async function startMockWorker(): Promise<void> {
  let role: MockRole = remembered(ROLE_KEY, 'as', isMockRole, 'admin');
  const scenario: Scenario = remembered(SCENARIO_KEY, 'scenario', isScenario, 'default');
  const world = createMockWorld({
    scenario,
    role: () => role,
    onViewAs: (next) => {
      role = next;
      sessionStorage.setItem(ROLE_KEY, next);
    },
  });
  const worker = setupWorker(...world.handlers);
  await worker.start({ onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
  console.info(
    `[mock] signed in as "${role}" in the "${scenario}" world (choose with ?as=${Object.keys(MOCK_USERS).join('|')} and ?scenario=${SCENARIOS.join('|')})`,
  );
}
