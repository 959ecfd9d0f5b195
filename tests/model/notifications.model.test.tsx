// Model-based test of the notifications (spec §2 "notification banner area", §4 "Notification"):
// every simple path of the notifications machine's graph is walked through the real app on MSW,
// on the service center page. NOTIFY is a recruiting point added there (the screen notifies
// "Recruiting point … added."), DISMISS the notification's close button in the banner area, and
// TICK past the deadline is fake time moved past the notification's lifetime. After every step
// the banner area must show what the machine's state says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getSimplePaths } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import type { RecruitingPoint, ServiceCenter } from '../../generated/hooks/model';
import { modelEvents, unreachedStateIds } from '../../machines/__tests__/model-events';
import { notificationsMachine, type NotificationsEvent } from '../../machines/notifications/notifications.machine';
import { notificationsEventFixtures } from '../../machines/notifications/__tests__/notifications.fixtures';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

/** How long the service center screen's notifications stay (its deadline, chosen by the screen: 5 s). */
const NOTIFICATION_MS = 5_000;
/** "disappears when the deadline passes": within a quarter second of it. */
const GONE_WITHIN_MS = 250;

type Snapshot = SnapshotFrom<typeof notificationsMachine>;

const SC = '5c000000-0000-4000-8000-000000000001';
const center: ServiceCenter = {
  id: SC,
  name: 'Accra Service Center',
  location: 'Accra',
  country: { iso_code: 'GH', display_name: 'Ghana' },
  created_at: '2024-02-01T00:00:00Z',
};
const NOTIFICATION_TEXT = 'Recruiting point Kaneshie stand added.';

beforeEach(() => {
  // Fake time (Date too: deadlines are read from it) that still moves on by itself.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const points: RecruitingPoint[] = [];
  server.use(
    http.get('*/api/service_centers/:id', () => HttpResponse.json(center)),
    http.get('*/api/service_centers/:id/recruiting-points', () => HttpResponse.json(points)),
    http.post('*/api/service_centers/:id/recruiting-points', async ({ request }) => {
      const body = (await request.json()) as { name: string; location: string };
      const point = { id: `r0000000-0000-4000-8000-00000000000${points.length + 1}`, ...body };
      points.push(point);
      return HttpResponse.json(point, { status: 201 });
    }),
    http.get('*/api/service-centers/:id/recruiters', () => HttpResponse.json([])),
    http.get('*/api/service-centers/:id/contact-persons', () => HttpResponse.json([])),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

/** The notifications shown in the app's banner area. */
const shown = () => {
  const area = document.querySelector('.banner-area') as HTMLElement;
  return within(area).queryAllByRole('status');
};

/** How long the banner area may take to show a state reached by time passing (see below). */
const DUE_NOW_MS = 250;

/** One driver per event: a new event type in the machine fails compilation here. */
const drivers: { [K in NotificationsEvent['type']]: () => Promise<number | undefined> } = {
  NOTIFY: async () => {
    const points = within(screen.getByRole('region', { name: 'Recruiting Points' }));
    fireEvent.change(points.getByLabelText('Name'), { target: { value: 'Kaneshie stand' } });
    fireEvent.change(points.getByLabelText('Location'), { target: { value: 'Kaneshie Market' } });
    fireEvent.click(points.getByRole('button', { name: 'Add' }));
    await points.findByText('Kaneshie stand');
    return undefined;
  },
  DISMISS: async () => {
    const [notification] = shown();
    fireEvent.click(within(notification as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    return undefined;
  },
  TICK: async () => {
    // Still there well before its deadline...
    await vi.advanceTimersByTimeAsync(NOTIFICATION_MS - 1_000);
    expect(shown().map((n) => n.textContent)).toEqual([NOTIFICATION_TEXT]);
    // ...and gone at the first clock tick after it. Fake time also moves on with real time, so
    // the screen gets only a short wait: a long one would let a late deadline catch up.
    await vi.advanceTimersByTimeAsync(1_000 + GONE_WITHIN_MS);
    return DUE_NOW_MS;
  },
};

/** What the banner area must show in each state of the machine. */
async function expectScreen(snapshot: Snapshot, timeout?: number) {
  switch (snapshot.value) {
    case 'empty':
      await waitFor(() => expect(shown()).toEqual([]), { timeout });
      return;
    case 'showing': {
      // The newest alone, with a count of the others (stacked ones became slivers in 4em).
      const others = snapshot.context.notifications.length - 1;
      await waitFor(
        () => {
          expect(shown().map((n) => n.textContent)).toEqual([NOTIFICATION_TEXT]);
          expect(document.querySelector('.banner-area .banner-others')?.textContent ?? null).toBe(
            others === 0 ? null : `${others} more notification${others === 1 ? '' : 's'}`,
          );
        },
        { timeout },
      );
      return;
    }
    default:
      throw new Error(`No screen expectation for state ${JSON.stringify(snapshot.value)}`);
  }
}

const paths = getSimplePaths(notificationsMachine, {
  events: modelEvents(Object.values(notificationsEventFixtures)),
});

const describePath = (steps: { event: { type: string } }[]) =>
  steps
    .slice(1)
    .map((step) => step.event.type)
    .join(' → ') || '(start)';

describe('notifications, walked through the real screen', () => {
  it('the paths reach every state of the machine', () => {
    expect(unreachedStateIds(notificationsMachine, paths.map((path) => path.state))).toEqual([]);
  });

  it.each(paths.map((path) => [describePath(path.steps), path] as const))('%s', async (_, path) => {
    renderApp(`/admin/service-centers/${SC}`, { as: 'admin' });
    await screen.findByText('No recruiting points yet.');
    for (const [index, step] of path.steps.entries()) {
      const timeout = index > 0 ? await drivers[step.event.type]() : undefined;
      await expectScreen(step.state, timeout);
    }
  });
});
