// The events, actor results and inputs the model tests walk the notifications machine's graph with
// (machines/notifications/__tests__ and tests/model): test material, kept out of the bundle.
import type { NotificationsEvent } from '../notifications.machine';
import type { EventFixtures } from '../../__tests__/model-events';

/** One example of every event, for model-based tests. */
export const notificationsEventFixtures = {
  NOTIFY: {
    type: 'NOTIFY',
    notification: { id: 'n-1', message: 'File uploaded.', severity: 'success', deadline: 2_000 },
    now: 1_000,
  },
  DISMISS: { type: 'DISMISS', id: 'n-1' },
  TICK: { type: 'TICK', now: 3_000 },
} satisfies EventFixtures<NotificationsEvent>;
