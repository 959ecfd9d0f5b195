import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-client';
import { createFocusThrottle, createQueryClient, retryDelay, shouldRetry } from '../query-client';

describe('the request cache defaults (spec §9)', () => {
  it('merges duplicate requests within 2 s', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.staleTime).toBe(2_000);
  });

  it('retries failed requests on a 5 s base interval', () => {
    expect(retryDelay(0)).toBe(5_000);
    expect(retryDelay(1)).toBe(10_000);
    expect(retryDelay(2)).toBe(20_000);
    expect(retryDelay(10)).toBe(40_000);
    expect(createQueryClient().getDefaultOptions().queries?.retryDelay).toBe(retryDelay);
  });

  it('does not retry client errors, retries others up to 3 times', () => {
    expect(shouldRetry(0, new ApiError(401, 'Unauthorized', {}))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'Not Found', {}))).toBe(false);
    expect(shouldRetry(0, new ApiError(503, 'Unavailable', {}))).toBe(true);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(3, new ApiError(503, 'Unavailable', {}))).toBe(false);
  });

  it('lets tests and screens override a default', () => {
    const client = createQueryClient({ queries: { retry: false } });
    expect(client.getDefaultOptions().queries?.retry).toBe(false);
    expect(client.getDefaultOptions().queries?.staleTime).toBe(2_000);
  });
});

describe('createFocusThrottle', () => {
  it('passes at most one focus every 5 s, and every blur', () => {
    let now = 0;
    const throttle = createFocusThrottle(5_000, () => now);
    const handle = vi.fn();
    throttle(true, handle);
    now = 4_999;
    throttle(true, handle);
    throttle(false, handle);
    now = 5_000;
    throttle(true, handle);
    expect(handle.mock.calls).toEqual([[true], [false], [true]]);
  });
});
