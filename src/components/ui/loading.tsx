// What a screen shows while its data or its code loads.
import { ProgressSpinner } from 'primereact/progressspinner';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-label={label}>
      <ProgressSpinner style={{ width: '3rem', height: '3rem' }} strokeWidth="4" />
    </div>
  );
}
