// Notifications: messages with a severity and a deadline, shown in the banner area until the
// deadline passes or the user dismisses them.
//
// State hierarchy (flat, id "notifications"):
//   empty    nothing to show (initial). NOTIFY whose deadline is still ahead → showing
//   showing  at least one notification. Invokes the `clock` actor (id "clock"), which sends
//            TICK {now}. NOTIFY adds one (a same id replaces it in place), DISMISS {id} removes
//            one, TICK drops those whose deadline has passed; an emptied list → empty
//
// The machine never reads the time itself: "now" comes with NOTIFY and TICK, so graph walks and
// tests are deterministic. context.now is the latest time seen (it never goes back), and a
// notification whose deadline is not after it is never added.
// The default `clock` ticks every NOTIFICATION_CLOCK_MS with Date.now(); tests and screens can
// supply another with .provide().
import { assign, fromCallback, setup } from 'xstate';

export type NotificationSeverity = 'success' | 'info' | 'warn' | 'error';

export interface Notification {
  id: string;
  message: string;
  severity: NotificationSeverity;
  /** Epoch milliseconds after which the notification is gone. */
  deadline: number;
}

export interface NotificationsContext {
  /** The notifications to show, oldest first; none of them has passed its deadline as of `now`. */
  notifications: Notification[];
  /** The latest time seen in NOTIFY or TICK (epoch ms). */
  now: number;
}

export type NotificationsEvent =
  | { type: 'NOTIFY'; notification: Notification; now: number }
  | { type: 'DISMISS'; id: string }
  | { type: 'TICK'; now: number };

/** How often the default clock ticks. */
export const NOTIFICATION_CLOCK_MS = 250;

/** The default clock: TICK with the current time every NOTIFICATION_CLOCK_MS while notifications show. */
export const intervalClock = fromCallback<NotificationsEvent>(({ sendBack }) => {
  const timer = setInterval(() => sendBack({ type: 'TICK', now: Date.now() }), NOTIFICATION_CLOCK_MS);
  return () => clearInterval(timer);
});

/** True while a notification is still to be shown at `now`. */
export function isLive(notification: Notification, now: number): boolean {
  return notification.deadline > now;
}

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    clock: intervalClock,
  },
  actions: {
    addNotification: assign(({ context, event }) => {
      if (event.type !== 'NOTIFY') return {};
      const now = Math.max(context.now, event.now);
      const live = context.notifications.filter((n) => isLive(n, now));
      if (!isLive(event.notification, now)) return { now, notifications: live };
      const index = live.findIndex((n) => n.id === event.notification.id);
      const notifications =
        index === -1 ? [...live, event.notification] : live.map((n, i) => (i === index ? event.notification : n));
      return { now, notifications };
    }),
    removeNotification: assign({
      notifications: ({ context, event }) =>
        event.type === 'DISMISS' ? context.notifications.filter((n) => n.id !== event.id) : context.notifications,
    }),
    dropExpired: assign(({ context, event }) => {
      if (event.type !== 'TICK') return {};
      const now = Math.max(context.now, event.now);
      return { now, notifications: context.notifications.filter((n) => isLive(n, now)) };
    }),
  },
  guards: {
    isLiveNotification: ({ context, event }) =>
      event.type === 'NOTIFY' && isLive(event.notification, Math.max(context.now, event.now)),
    isEmpty: ({ context }) => context.notifications.length === 0,
  },
}).createMachine({
  id: 'notifications',
  context: { notifications: [], now: 0 },
  initial: 'empty',
  states: {
    empty: {
      on: {
        NOTIFY: [
          { guard: 'isLiveNotification', target: 'showing', actions: 'addNotification' },
          // An expired notification is not shown, but its time still counts as seen.
          { actions: 'addNotification' },
        ],
      },
    },
    showing: {
      invoke: { id: 'clock', src: 'clock' },
      always: { guard: 'isEmpty', target: 'empty' },
      on: {
        NOTIFY: { actions: 'addNotification' },
        DISMISS: { actions: 'removeNotification' },
        TICK: { actions: 'dropExpired' },
      },
    },
  },
});
