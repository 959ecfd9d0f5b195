// Model-based test of View As (spec §2 "Page chrome", §4 "View As", §6): every simple path of the
// view-as machine's graph is walked through the real app on MSW, as the machine's model user (an
// is_admin coordinator with a congregation, who may both enter and exit). ENTER is the "View As"
// side link of /admin/congregations/{group_id}/files, EXIT the account menu's "Exit View As"; the
// setViewAs actor's results are the answers to POST /api/auth/view-as, given when the path says.
// The full-page loads go through browserLocation, replaced here by spies; a reload renders the
// app again at / as the user the server now says it is. After every step the screen must show
// what the machine's state says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getSimplePaths } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import type { AboutMe, Congregation, FileList, ViewAsRequest } from '../../generated/hooks/model';
import { getGetMeQueryKey } from '../../generated/hooks/auth/auth';
import { modelEvents, unreachedStateIds, type ActorResultEvent } from '../../machines/__tests__/model-events';
import { viewAsMachine, type ViewAsEvent } from '../../machines/view-as/view-as.machine';
import { viewAsActorResults, viewAsEventFixtures, viewAsModelInput } from '../../machines/view-as/__tests__/view-as.fixtures';
import { renderApp, setupMockApi, type RenderAppResult } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID, MOCK_USERS } from '../../src/testing/mocks/handlers';
import { browserLocation } from '../../src/lib/browser-location';

setupMockApi();

/** What the View As side link says when the call failed (the screen's text, written here). */
const VIEW_AS_FAILED = 'View As failed. Please try again.';

type Snapshot = SnapshotFrom<typeof viewAsMachine>;
type PathEvent = ViewAsEvent | ActorResultEvent;

/** The congregation whose files page the path starts on (not the one the user acts for). */
const ACCRA: Congregation = {
  id: 'c0000000-0000-4000-8000-00000000acc4',
  wbs_code: 'GH 5678',
  display_name: 'Accra Central',
  created_at: '2024-01-02T00:00:00Z',
};
const START = `/admin/congregations/${ACCRA.id}/files`;

/** The machine's model user: an is_admin coordinator acting for the demo congregation (US 1234). */
const ACTING_ADMIN: AboutMe = { ...MOCK_USERS['view-as'] };
/** Who the server says the user is after entering Accra, and after exiting. */
const ACTING_FOR_ACCRA: AboutMe = { ...ACTING_ADMIN, congregation: ACCRA.id, wbs_code: ACCRA.wbs_code, display_name: ACCRA.display_name };
const SCANNING_ADMIN: AboutMe = { ...MOCK_USERS.admin };

/** A POST /api/auth/view-as waiting for the path to say how it ends. */
interface PendingCall {
  body: ViewAsRequest;
  answer: (outcome: 'done' | 'error') => void;
}

let me: AboutMe = ACTING_ADMIN;
let pending: PendingCall[] = [];
let calls: ViewAsRequest[] = [];
let effects: string[] = [];
let app: RenderAppResult;

function useServer() {
  me = ACTING_ADMIN;
  pending = [];
  calls = [];
  server.use(
    http.get('*/api/auth/me', () => HttpResponse.json(me)),
    http.get('*/api/congregations/:id', ({ params }) =>
      HttpResponse.json(
        params.id === ACCRA.id
          ? ACCRA
          : { id: DEMO_CONGREGATION_ID, wbs_code: 'US 1234', display_name: 'Springfield North', created_at: '2024-01-01T00:00:00Z' },
      ),
    ),
    http.get('*/api/files', () => HttpResponse.json<FileList>({ items: [], total: 0, skip: 0, limit: 10 })),
    http.post('*/api/auth/view-as', async ({ request }) => {
      const body = (await request.json()) as ViewAsRequest;
      calls.push(body);
      const outcome = await new Promise<'done' | 'error'>((resolve) => pending.push({ body, answer: resolve }));
      if (outcome === 'error') return HttpResponse.json({ detail: 'View As is unavailable' }, { status: 500 });
      me = body.congregation === null ? SCANNING_ADMIN : ACTING_FOR_ACCRA;
      return HttpResponse.json(me);
    }),
  );
}

beforeEach(() => {
  effects = [];
  vi.spyOn(browserLocation, 'assign').mockImplementation((url) => void effects.push(`assign ${url}`));
  vi.spyOn(browserLocation, 'pushPath').mockImplementation((path) => void effects.push(`pushPath ${path}`));
  vi.spyOn(browserLocation, 'reload').mockImplementation(() => void effects.push('reload'));
  // A failed call is logged (spec §8); keep the test output quiet but countable.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  for (const call of pending) call.answer('error');
  vi.restoreAllMocks();
});

const sideNav = () => within(screen.getByRole('navigation', { name: 'Congregation' }));
const viewAsButton = () => sideNav().getByRole('button', { name: 'View As' }) as HTMLButtonElement;

/** Opens the account menu (titled `title`) and returns its "Exit View As" item, if any. */
async function exitItem(title = 'US 1234') {
  const button = await screen.findByRole('button', { name: title });
  if (button.getAttribute('aria-expanded') !== 'true') fireEvent.click(button);
  const menu = await screen.findByRole('menu', { hidden: true });
  return within(menu).queryByRole('menuitem', { name: 'Exit View As', hidden: true });
}

async function clickExitItem() {
  const item = await exitItem();
  if (!item) throw new Error('The account menu has no "Exit View As"');
  fireEvent.click(item.querySelector('a') as HTMLElement);
}

/** Closes the account menu if it is open (a click elsewhere). */
function closeMenu() {
  fireEvent.click(document.body);
}

/** Whether the failed call of `snapshot` was an exit (the machine remembers null for an exit). */
const failedOnExit = (snapshot: Snapshot) => snapshot.context.requestedCongregation === null;

/** The pending call the path answers next. */
async function nextPending(): Promise<PendingCall> {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0));
  return pending.shift() as PendingCall;
}

/** One driver per user event: a new event type in the machine fails compilation here. */
const userEvents: { [K in ViewAsEvent['type']]: (before: Snapshot) => Promise<void> } = {
  ENTER: async () => {
    fireEvent.click(viewAsButton());
  },
  EXIT: async () => {
    await clickExitItem();
  },
  RETRY: async (before) => {
    // The account menu's item retries a failed exit.
    if (failedOnExit(before)) await clickExitItem();
    else {
      fireEvent.click(within(sideNav().getByRole('alert')).getByRole('button', { name: 'Try again' }));
    }
  },
  CANCEL: async (before) => {
    // The simple paths never cancel a failed exit: the account menu has no Cancel for it.
    if (failedOnExit(before)) throw new Error('The account menu offers no Cancel after a failed Exit View As');
    fireEvent.click(within(sideNav().getByRole('alert')).getByRole('button', { name: 'Cancel' }));
  },
  USER_CHANGED: async () => {
    // The app sends USER_CHANGED whenever about-me is read again.
    await app.queryClient.invalidateQueries({ queryKey: getGetMeQueryKey() });
  },
};

async function perform(event: PathEvent, before: Snapshot) {
  if (event.type === 'xstate.done.actor.setViewAs') return (await nextPending()).answer('done');
  if (event.type === 'xstate.error.actor.setViewAs') return (await nextPending()).answer('error');
  if (event.type in userEvents) return userEvents[event.type as ViewAsEvent['type']](before);
  throw new Error(`No screen action for ${event.type}`);
}

/** The app after a full page load at `path`, as whoever the server now says is signed in. */
async function reloadAt(path: string) {
  cleanup();
  app = renderApp(path, { as: 'view-as' });
  await screen.findByRole('heading', { level: 1 });
}

/** What the screen must show in each state of the machine. */
async function expectScreen(snapshot: Snapshot, before: Snapshot | undefined) {
  switch (snapshot.value) {
    case 'idle':
      await waitFor(() => expect(viewAsButton().disabled).toBe(false));
      expect(sideNav().queryByRole('alert')).toBeNull();
      expect(effects).toEqual([]);
      return;
    case 'entering':
      await waitFor(() => expect(calls.at(-1)).toEqual({ congregation: ACCRA.id }));
      expect(viewAsButton().disabled).toBe(true);
      expect(viewAsButton().getAttribute('aria-busy')).toBe('true');
      expect(effects).toEqual([]);
      return;
    case 'exiting': {
      await waitFor(() => expect(calls.at(-1)).toEqual({ congregation: null }));
      const item = (await exitItem()) as HTMLElement;
      expect(item.getAttribute('aria-disabled')).toBe('true');
      closeMenu();
      expect(effects).toEqual([]);
      return;
    }
    case 'error':
      await waitFor(() => expect(console.error).toHaveBeenCalledWith('View As failed', expect.anything()));
      if (failedOnExit(snapshot)) {
        const item = (await exitItem()) as HTMLElement;
        await waitFor(() => expect(item.getAttribute('aria-disabled')).not.toBe('true'));
        closeMenu();
        expect(sideNav().queryByRole('alert')).toBeNull();
      } else {
        const alert = await sideNav().findByRole('alert');
        expect(alert.textContent).toContain(VIEW_AS_FAILED);
        expect(viewAsButton().disabled).toBe(false);
      }
      expect(effects).toEqual([]);
      return;
    case 'done':
      // The app starts over at / and now acts for Accra.
      await waitFor(() => expect(effects).toEqual(['assign /']));
      await reloadAt('/');
      expect(await exitItem('GH 5678')).toBeTruthy();
      return;
    case 'exited':
      // It goes to / and then reloads, back to the plain admin.
      await waitFor(() => expect(effects).toEqual(['pushPath /', 'reload']));
      await reloadAt('/');
      expect(await exitItem('Admin')).toBeNull();
      return;
    default:
      throw new Error(`No screen expectation for state ${JSON.stringify(snapshot.value)} (from ${String(before?.value)})`);
  }
}

const paths = getSimplePaths(viewAsMachine, {
  input: viewAsModelInput,
  events: modelEvents(Object.values(viewAsEventFixtures), viewAsActorResults),
});

const describePath = (steps: { event: { type: string } }[]) =>
  steps
    .slice(1)
    .map((step) => step.event.type.replace('xstate.done.actor.setViewAs', 'ok').replace('xstate.error.actor.setViewAs', 'fails'))
    .join(' → ') || '(start)';

describe('View As, walked through the real screens', () => {
  it('the paths reach every state of the machine, as the machine\'s model user', () => {
    expect(unreachedStateIds(viewAsMachine, paths.map((path) => path.state))).toEqual([]);
    expect(ACTING_ADMIN).toMatchObject({
      role: viewAsModelInput.user.role,
      is_admin: viewAsModelInput.user.is_admin,
      congregation: DEMO_CONGREGATION_ID,
    });
  });

  it.each(paths.map((path) => [describePath(path.steps), path] as const))('%s', async (_, path) => {
    useServer();
    app = renderApp(START, { as: 'view-as' });
    await screen.findByRole('heading', { level: 1, name: 'Congregation Files' });
    await screen.findByText('GH 5678 · Accra Central');
    let before: Snapshot | undefined;
    for (const step of path.steps) {
      if (before) await perform(step.event as PathEvent, before);
      await expectScreen(step.state, before);
      before = step.state;
    }
  });
});
