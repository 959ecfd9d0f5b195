// msw/node for the web tests: the mock world (default scenario), signed in as a chosen mock user;
// tests switch the scenario with useScenario(...) and add their own overrides with server.use(...).
import { setupServer } from 'msw/node';
import type { MockRole } from './handlers';
import { createMockWorld, type Scenario } from './world';

let signedInAs: MockRole = 'admin';

/** The world the tests' requests reach; progress streams step every 5 ms. */
export const mockWorld = createMockWorld({
  scenario: 'default',
  role: () => signedInAs,
  onViewAs: (role) => {
    signedInAs = role;
  },
  progressIntervalMs: 5,
});

export const server = setupServer(...mockWorld.handlers);

export function signInAs(role: MockRole): void {
  signedInAs = role;
}

/** Starts the world of `scenario` again from its seed (setupMockApi goes back to default after each test). */
export function useScenario(scenario: Scenario): void {
  mockWorld.reset(scenario);
}
