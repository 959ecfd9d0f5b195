// Starts the banner area's actors once for the whole app.
import type { ReactNode } from 'react';
import { useActorRef } from '@xstate/react';
import { notificationsMachine } from '../../../machines/notifications/notifications.machine';
import { resultBannerMachine } from '../../../machines/result-banner/result-banner.machine';
import { BannerActorsContext } from './notifications-context';

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const notifications = useActorRef(notificationsMachine);
  // The app-level banner stays until dismissed; a screen wanting a fading one runs its own.
  const resultBanner = useActorRef(resultBannerMachine, { input: { autoFadeMs: null } });
  return <BannerActorsContext.Provider value={{ notifications, resultBanner }}>{children}</BannerActorsContext.Provider>;
}
