// Model-based test of the result banner (spec §4 "Result banner", §8 "Baptism request dialog", §9):
// every simple path of the result-banner machine's graph, run with the input the baptism requests
// screen gives it (fade after BAPTISM_SUCCESS_FADE_MS, the baptism success text), is walked through
// that real screen on MSW. RESULT is a baptism request created through the "Add Baptism Request"
// dialog, DISMISS the banner's close button, and the machine's delays are fake time moved on.
// After every step the screen must show what the machine's state says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getSimplePaths } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import type { BaptismRequest, BaptismRequestList } from '../../generated/hooks/model';
import { modelEvents, unreachedStateIds, type EventFixtures } from '../../machines/__tests__/model-events';
import {
  resultBannerMachine,
  type ResultBannerEvent,
  type ResultBannerInput,
} from '../../machines/result-banner/result-banner.machine';
import { resultBannerEventFixtures } from '../../machines/result-banner/__tests__/result-banner.fixtures';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

// ---- The spec, as written (§4 "Result banner", §8 "Baptism request dialog", §9) ----
/** "Success: "Baptism request successfully created.", fading after 5 s." */
const BAPTISM_REQUEST_CREATED = 'Baptism request successfully created.';
const BAPTISM_SUCCESS_FADE_MS = 5_000;
/** "fade lasts 500 ms" */
const BANNER_FADE_MS = 500;

type Snapshot = SnapshotFrom<typeof resultBannerMachine>;

/** The input the baptism requests screen runs its banner with. */
const SCREEN_INPUT: ResultBannerInput = { autoFadeMs: BAPTISM_SUCCESS_FADE_MS, successMessage: BAPTISM_REQUEST_CREATED };

/** The machine's fixtures, with RESULT as the screen reports it: a success. */
const events = {
  ...resultBannerEventFixtures,
  RESULT: { type: 'RESULT', result: { type: 'success' } },
} satisfies EventFixtures<ResultBannerEvent>;

const created: BaptismRequest = {
  id: 'b0000000-0000-4000-8000-000000000001',
  student: { id: 'a0000000-0000-4000-8000-000000000001', human_id: 100245, name: 'Kofi Asante' },
  service_center: null,
  recruiter: null,
  latest_status: { status: 'pending' },
  requested_at: '2024-03-05T12:00:00Z',
};

beforeEach(() => {
  // Fake time that still moves on by itself, so MSW and the screen run as usual.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server.use(
    http.get('*/api/baptism-requests', () => HttpResponse.json<BaptismRequestList>({ items: [], total: 0, skip: 0, limit: 10 })),
    http.post('*/api/baptism-request', () => HttpResponse.json(created, { status: 201 })),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

/** The screen's banner slot (above the table). */
const bannerSlot = () => document.querySelector('.screen-banner') as HTMLElement;
const banner = () => within(bannerSlot()).queryByRole('status');

/** One driver per user event: a new event type in the machine fails compilation here. */
const userEvents: { [K in ResultBannerEvent['type']]: () => Promise<void> } = {
  RESULT: async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add Baptism Request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Baptism Request' });
    fireEvent.change(within(dialog).getByLabelText('Student ID'), { target: { value: '100245' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  },
  DISMISS: async () => {
    fireEvent.click(within(bannerSlot()).getByRole('button', { name: 'Dismiss' }));
  },
};

/**
 * How long the screen may take to show a state reached by a delay: fake time also moves on with
 * real time, so a long wait would let a late timer catch up and hide a wrong delay.
 */
const DUE_NOW_MS = 250;

/** Does the event on the screen; returns how long the screen may then take to show the new state. */
async function perform(event: { type: string }): Promise<number | undefined> {
  if (event.type.startsWith('xstate.after.autoFade.')) {
    // Not a moment early: still shown well before the fade is due...
    await vi.advanceTimersByTimeAsync(BAPTISM_SUCCESS_FADE_MS - 1_000);
    expect(banner()?.classList.contains('banner-fading')).toBe(false);
    // ...and fading once it is.
    await vi.advanceTimersByTimeAsync(1_000);
    return DUE_NOW_MS;
  }
  if (event.type.startsWith('xstate.after.bannerFade.')) {
    await vi.advanceTimersByTimeAsync(BANNER_FADE_MS);
    return DUE_NOW_MS;
  }
  if (!(event.type in userEvents)) throw new Error(`No screen action for ${event.type}`);
  await userEvents[event.type as ResultBannerEvent['type']]();
  return undefined;
}

/** What the screen must show in each state of the machine. */
async function expectScreen(snapshot: Snapshot, timeout?: number) {
  switch (snapshot.value) {
    case 'hidden':
    case 'dismissed':
      await waitFor(() => expect(banner()).toBeNull(), { timeout });
      expect(screen.queryByText(BAPTISM_REQUEST_CREATED)).toBeNull();
      return;
    case 'shown':
    case 'fading': {
      const fading = snapshot.value === 'fading';
      await waitFor(
        () => {
          expect(banner()?.textContent).toBe(BAPTISM_REQUEST_CREATED);
          expect(banner()?.classList.contains('banner-fading')).toBe(fading);
        },
        { timeout },
      );
      return;
    }
    default:
      throw new Error(`No screen expectation for state ${JSON.stringify(snapshot.value)}`);
  }
}

const paths = getSimplePaths(resultBannerMachine, {
  input: SCREEN_INPUT,
  events: modelEvents(Object.values(events)),
});

const describePath = (steps: { event: { type: string } }[]) =>
  steps
    .slice(1)
    .map((step) => step.event.type.replace(/^xstate\.after\.(\w+)\..*$/, 'after $1'))
    .join(' → ') || '(start)';

describe('the baptism requests screen\'s result banner, walked through the real screen', () => {
  it('the paths reach every state, and the banner shows the baptism success text', () => {
    expect(unreachedStateIds(resultBannerMachine, paths.map((path) => path.state))).toEqual([]);
    expect(paths.some((path) => path.state.context.message === BAPTISM_REQUEST_CREATED)).toBe(true);
  });

  it.each(paths.map((path) => [describePath(path.steps), path] as const))('%s', async (_, path) => {
    renderApp('/baptism-requests/', { as: 'coordinator' });
    await screen.findByText('There are no baptism requests yet');
    for (const [index, step] of path.steps.entries()) {
      const timeout = index > 0 ? await perform(step.event) : undefined;
      await expectScreen(step.state, timeout);
    }
  });
});
