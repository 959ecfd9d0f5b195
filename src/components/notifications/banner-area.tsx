// The 4em area above the content: one banner at a time, the newest of the result banner and the
// live notifications, with a count of the others (several stacked in 4em became unreadable
// slivers). Dismissing it shows the next newest.
import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useBannerActors } from './notifications-context';
import { ResultBanner } from './result-banner';

const RESULT_BANNER = 'result-banner';

/** "1 more notification" / "3 more notifications". */
export function othersText(count: number): string {
  return `${count} more notification${count === 1 ? '' : 's'}`;
}

export function BannerArea() {
  const { notifications, resultBanner } = useBannerActors();
  const items = useSelector(notifications, (s) => s.context.notifications);
  const resultVisible = useSelector(resultBanner, (s) => (s.matches('shown') || s.matches('fading')) && !!s.context.message);
  const resultMessage = useSelector(resultBanner, (s) => s.context.message);

  // When each banner was first seen here, to know which is the newest (a notification replaced
  // by the same id keeps its place; a new result message counts as new).
  const seen = useRef(new Map<string, number>());
  const counter = useRef(0);
  const keys = [...items.map((n) => n.id), ...(resultVisible ? [`${RESULT_BANNER}:${resultMessage}`] : [])];
  for (const key of keys) if (!seen.current.has(key)) seen.current.set(key, (counter.current += 1));
  for (const key of [...seen.current.keys()]) if (!keys.includes(key)) seen.current.delete(key);
  const newest = keys.reduce<string | null>((best, key) => (best === null || seen.current.get(key)! > seen.current.get(best)! ? key : best), null);
  const others = keys.length - 1;

  const shown = newest === null ? null : newest.startsWith(`${RESULT_BANNER}:`) ? 'result' : items.find((n) => n.id === newest);
  return (
    <div className="banner-area" aria-live="polite">
      {shown === 'result' && <ResultBanner actor={resultBanner} />}
      {shown && shown !== 'result' && (
        <div role={shown.severity === 'error' ? 'alert' : 'status'} className={`banner p-message p-component p-message-${shown.severity}`}>
          <span className="banner-text">{shown.message}</span>
          <button
            type="button"
            className="banner-close"
            aria-label="Dismiss"
            onClick={() => notifications.send({ type: 'DISMISS', id: shown.id })}
          >
            <span className="pi pi-times" aria-hidden="true" />
          </button>
        </div>
      )}
      {others > 0 && <span className="banner-others">{othersText(others)}</span>}
    </div>
  );
}
