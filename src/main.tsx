// The web app's entry: the theme (order matters: Lara theme, PrimeReact's structure, icons, then
// the portal's colours), the mock API in `vite --mode mock`, then the app.
import 'primereact/resources/themes/lara-light-blue/theme.css';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './styles/brand.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { installFocusThrottle } from './lib/query-client';

async function start(): Promise<void> {
  if (import.meta.env.MODE === 'mock') {
    const { startMockWorker } = await import('./testing/mocks/browser');
    await startMockWorker();
  }
  installFocusThrottle();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
