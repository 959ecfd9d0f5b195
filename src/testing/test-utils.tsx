// Rendering the real app (routes, providers, chrome) at an address for web tests, on MSW.
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { AppProvider } from '../app/provider';
import { appRoutes } from '../app/routes';
import { createQueryClient } from '../lib/query-client';
import type { MockRole } from './mocks/handlers';
import { server, signInAs, useScenario } from './mocks/server';

/** Starts msw/node for the file's tests on the mock world, and resets overrides and the world between them. */
export function setupMockApi(): void {
  // The first visit of a route compiles its lazily loaded screen, which can take seconds in tests.
  configure({ asyncUtilTimeout: 10_000 });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    signInAs('admin');
    // Each test starts from the default world as seeded.
    useScenario('default');
  });
  afterAll(() => server.close());
}

export interface RenderAppResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/** Renders the app at `path`, signed in as a mock user (default admin). */
export function renderApp(path: string, options: { as?: MockRole } = {}): RenderAppResult {
  signInAs(options.as ?? 'admin');
  // No retries: a test sees an error at once.
  const queryClient = createQueryClient({ queries: { retry: false } });
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}
