// When the signed-in user cannot be read for a reason other than being signed out.
import { Button } from 'primereact/button';

export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="access-screen">
      <div className="access-card" role="alert">
        <h1>Something went wrong</h1>
        <p>The portal could not reach the server. Please try again.</p>
        <Button type="button" label="Try again" icon="pi pi-refresh" onClick={onRetry} />
      </div>
    </main>
  );
}
