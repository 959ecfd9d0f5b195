// Shown when a screen throws or its code fails to load (e.g. after a deploy replaced the chunks).
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from 'primereact/button';

export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <main className="access-screen">
      <div className="access-card" role="alert">
        <h1>Something went wrong</h1>
        {detail && <p>{detail}</p>}
        <Button type="button" label="Reload" icon="pi pi-refresh" onClick={() => window.location.reload()} />
      </div>
    </main>
  );
}
