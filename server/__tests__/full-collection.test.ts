import { describe, expect, it } from 'vitest';
import { collectGarbageSoon, collectWhenBuffersGrow } from '../full-collection';

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A weak reference to what `make` returns, once nothing else refers to it any more. */
async function dropped<T extends object>(make: () => T): Promise<WeakRef<T>> {
  const ref = new WeakRef(make());
  // A WeakRef keeps its target alive until the current job ends.
  await tick();
  return ref;
}

describe('collectGarbageSoon', () => {
  it('collects what nothing refers to any more, soon after', async () => {
    const ref = await dropped(() => ({ values: Array.from({ length: 10_000 }, (_, i) => i) }));
    collectGarbageSoon();
    for (let i = 0; i < 100 && ref.deref() !== undefined; i++) await tick();
    expect(ref.deref()).toBeUndefined();
  });
});

describe('collectWhenBuffersGrow', () => {
  it('collects dead buffers once more than the budget of them has piled up', async () => {
    const check = collectWhenBuffersGrow(8 * 1024 * 1024);
    check();
    // 16 MB outside the heap, dead: far below what makes V8 collect by itself (64 MB).
    const ref = await dropped(() => ({
      pages: Array.from({ length: 4 }, () => new Uint8Array(4 * 1024 * 1024).fill(1)),
    }));
    check();
    for (let i = 0; i < 100 && ref.deref() !== undefined; i++) await tick();
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves buffers alone while they stay within the budget', async () => {
    const check = collectWhenBuffersGrow(64 * 1024 * 1024);
    check();
    const ref = await dropped(() => ({ page: new Uint8Array(4 * 1024 * 1024).fill(1) }));
    check();
    for (let i = 0; i < 10; i++) await tick();
    expect(ref.deref()).toBeDefined();
  });
});
