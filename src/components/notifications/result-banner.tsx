// One result banner (an actor of the result-banner machine): its message, a close button, and a
// fade-out while the machine is fading. Reusable by screens that run their own banner.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { resultBannerMachine } from '../../../machines/result-banner/result-banner.machine';
import { BANNER_FADE_MS } from '../../../machines/constants';

export function ResultBanner({ actor }: { actor: ActorRefFrom<typeof resultBannerMachine> }) {
  const visible = useSelector(actor, (s) => s.matches('shown') || s.matches('fading'));
  const fading = useSelector(actor, (s) => s.matches('fading'));
  const message = useSelector(actor, (s) => s.context.message);
  const type = useSelector(actor, (s) => s.context.result?.type);
  if (!visible || !message) return null;
  const severity = type === 'success' ? 'success' : 'error';
  return (
    <div
      role={severity === 'error' ? 'alert' : 'status'}
      className={`banner p-message p-component p-message-${severity}${fading ? ' banner-fading' : ''}`}
      style={{ transitionDuration: `${BANNER_FADE_MS}ms` }}
    >
      <span className="banner-text">{message}</span>
      <button type="button" className="banner-close" aria-label="Dismiss" onClick={() => actor.send({ type: 'DISMISS' })}>
        <span className="pi pi-times" aria-hidden="true" />
      </button>
    </div>
  );
}
