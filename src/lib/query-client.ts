// The request cache every screen shares, with spec §9's behaviour: duplicate requests merged
// within 2 s, failed requests retried on a 5 s base interval, refresh on window focus throttled to
// 5 s, and no HTTP timeout (nothing here or in api-client aborts a slow request).
import { focusManager, QueryClient, type DefaultOptions } from '@tanstack/react-query';
import {
  REQUEST_DEDUPE_MS,
  REQUEST_ERROR_RETRY_BASE_MS,
  REQUEST_FOCUS_THROTTLE_MS,
} from '../../machines/constants';
import { ApiError } from './api-client';

/** How many times a failed request is retried before its error shows. */
export const MAX_QUERY_RETRIES = 3;

/**
 * Delay before the next retry, given how many retries already ran (TanStack passes 0 before the
 * first): 5 s, then 10 s, 20 s, 40 s (exponential on the 5 s base, capped at 8 times it).
 */
export function retryDelay(retriesSoFar: number): number {
  return REQUEST_ERROR_RETRY_BASE_MS * 2 ** Math.min(Math.max(retriesSoFar, 0), 3);
}

/** A client error (4xx) will not change on retry: 401, 403, 404 answer at once. */
export function shouldRetry(retriesSoFar: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return retriesSoFar < MAX_QUERY_RETRIES;
}

export const queryDefaults: DefaultOptions = {
  queries: {
    staleTime: REQUEST_DEDUPE_MS,
    retry: shouldRetry,
    retryDelay,
    refetchOnWindowFocus: true,
  },
  mutations: {
    retry: false,
  },
};

export function createQueryClient(overrides: DefaultOptions = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { ...queryDefaults.queries, ...overrides.queries },
      mutations: { ...queryDefaults.mutations, ...overrides.mutations },
    },
  });
}

/**
 * Focus events reach the cache at most once per throttle window, so switching windows back and
 * forth does not refetch every screen each time.
 */
export function createFocusThrottle(
  throttleMs: number = REQUEST_FOCUS_THROTTLE_MS,
  now: () => number = Date.now,
): (focused: boolean, handleFocus: (focused?: boolean) => void) => void {
  let lastFocusAt = Number.NEGATIVE_INFINITY;
  return (focused, handleFocus) => {
    if (!focused) return handleFocus(false);
    const at = now();
    if (at - lastFocusAt < throttleMs) return;
    lastFocusAt = at;
    handleFocus(true);
  };
}

/** Routes the cache's focus refetches through the throttle (call once at start-up). */
export function installFocusThrottle(throttleMs: number = REQUEST_FOCUS_THROTTLE_MS): void {
  const throttle = createFocusThrottle(throttleMs);
  focusManager.setEventListener((handleFocus) => {
    if (typeof window === 'undefined') return undefined;
    const onVisibility = () => throttle(document.visibilityState === 'visible', handleFocus);
    const onFocus = () => throttle(true, handleFocus);
    window.addEventListener('visibilitychange', onVisibility, false);
    window.addEventListener('focus', onFocus, false);
    return () => {
      window.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('focus', onFocus);
    };
  });
}
