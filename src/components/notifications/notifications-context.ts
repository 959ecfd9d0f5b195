// The app-wide banner area's two actors: the notifications list and the result banner (spec §4
// "Result banner", "Notification"). Screens reach them through the hooks below.
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { NotificationSeverity, notificationsMachine } from '../../../machines/notifications/notifications.machine';
import type { BannerResult, resultBannerMachine } from '../../../machines/result-banner/result-banner.machine';

export interface BannerActors {
  notifications: ActorRefFrom<typeof notificationsMachine>;
  resultBanner: ActorRefFrom<typeof resultBannerMachine>;
}

export const BannerActorsContext = createContext<BannerActors | null>(null);

export function useBannerActors(): BannerActors {
  const actors = useContext(BannerActorsContext);
  if (!actors) throw new Error('The banner hooks need <NotificationsProvider> above them');
  return actors;
}

/** How long a notification stays unless told otherwise. */
export const DEFAULT_NOTIFICATION_MS = 5_000;

export interface NotifyOptions {
  severity?: NotificationSeverity;
  /** How long it stays, in ms (default 5 s). */
  durationMs?: number;
  /** A notification with the same id replaces the earlier one. */
  id?: string;
}

let nextNotificationId = 0;

export function useNotifications(): {
  notify: (message: string, options?: NotifyOptions) => string;
  dismiss: (id: string) => void;
} {
  const { notifications } = useBannerActors();
  return {
    notify: (message, options = {}) => {
      const id = options.id ?? `notification-${(nextNotificationId += 1)}`;
      const now = Date.now();
      notifications.send({
        type: 'NOTIFY',
        now,
        notification: {
          id,
          message,
          severity: options.severity ?? 'info',
          deadline: now + (options.durationMs ?? DEFAULT_NOTIFICATION_MS),
        },
      });
      return id;
    },
    dismiss: (id) => notifications.send({ type: 'DISMISS', id }),
  };
}

/** Shows an operation's outcome in the banner area (texts of spec §8 "Banner messages"). */
export function useResultBanner(): { show: (result: BannerResult) => void; dismiss: () => void } {
  const { resultBanner } = useBannerActors();
  return {
    show: (result) => resultBanner.send({ type: 'RESULT', result }),
    dismiss: () => resultBanner.send({ type: 'DISMISS' }),
  };
}
