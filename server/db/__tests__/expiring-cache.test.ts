import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../expiring-cache';

describe('ExpiringCache', () => {
  it('answers until the entry expires, and forgets on delete and clear', () => {
    const cache = new ExpiringCache<number>(10);
    cache.set('a', 1, 1000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    cache.set('b', 2, 1000);
    cache.delete('b');
    expect(cache.get('b', 0)).toBeUndefined();
    cache.set('c', 3, 1000);
    cache.clear();
    expect(cache.get('c', 0)).toBeUndefined();
  });

  it('drops everything when full, then keeps the new entry', () => {
    const cache = new ExpiringCache<number>(2);
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    cache.set('c', 3, 1000);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([
      undefined,
      undefined,
      3,
    ]);
  });
});
