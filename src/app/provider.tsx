// Everything every screen relies on: the request cache, PrimeReact's settings and the banner area's
// actors.
import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { createQueryClient } from '../lib/query-client';
import { NotificationsProvider } from '../components/notifications/notifications-provider';

/** A Content-Security-Policy nonce the server may put in `<meta name="csp-nonce">` for PrimeReact's styles. */
function cspNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content || undefined;
}

export interface AppProviderProps {
  children: ReactNode;
  /** A cache to use instead of a new one (tests). */
  queryClient?: QueryClient;
}

export function AppProvider({ children, queryClient }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [primeOptions] = useState(() => ({
    ripple: false,
    nonce: cspNonce(),
    // A dropdown's native <select> copy only serves forms; the labelled combobox is what assistive
    // technology uses, so keep the unnamed copy out of the accessibility tree everywhere.
    // PrimeReact also puts aria-activedescendant on the dropdown's plain root <div> (not allowed
    // there, and "dropdownItem_-1" names nothing) and leaves the search box unnamed.
    pt: {
      dropdown: {
        select: { 'aria-hidden': true },
        root: { 'aria-activedescendant': undefined },
        filterInput: { 'aria-label': 'Search the options' },
      },
    },
  }));
  return (
    <QueryClientProvider client={client}>
      <PrimeReactProvider value={primeOptions}>
        <NotificationsProvider>{children}</NotificationsProvider>
      </PrimeReactProvider>
    </QueryClientProvider>
  );
}
