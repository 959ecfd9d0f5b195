// The 4em area above the content: the app's result banner, then live notifications.
import { useSelector } from '@xstate/react';
import { useBannerActors } from './notifications-context';
import { ResultBanner } from './result-banner';

export function BannerArea() {
  const { notifications, resultBanner } = useBannerActors();
  const items = useSelector(notifications, (s) => s.context.notifications);
  return (
    <div className="banner-area" aria-live="polite">
      <ResultBanner actor={resultBanner} />
      {items.map((n) => (
        <div
          key={n.id}
          role={n.severity === 'error' ? 'alert' : 'status'}
          className={`banner p-message p-component p-message-${n.severity}`}
        >
          <span className="banner-text">{n.message}</span>
          <button
            type="button"
            className="banner-close"
            aria-label="Dismiss"
            onClick={() => notifications.send({ type: 'DISMISS', id: n.id })}
          >
            <span className="pi pi-times" aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
