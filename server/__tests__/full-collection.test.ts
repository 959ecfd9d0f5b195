import { describe, expect, it } from 'vitest';
import { collectGarbageSoon, collectWhenBuffersGrow } from '../full-collection';

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('collectGarbageSoon', () => {
  it('collects what nothing refers to any more, soon after', async () => {
    let target: { values: number[] } | null = {
      values: Array.from({ length: 10_000 }, (_, i) => i),
    };
    const ref = new WeakRef(target);
    target = null;
    // A WeakRef keeps its target alive until the current job ends.
    await tick();
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
    let pixels: { pages: Uint8Array[] } | null = {
      pages: Array.from({ length: 4 }, () => new Uint8Array(4 * 1024 * 1024).fill(1)),
    };
    const ref = new WeakRef(pixels);
    pixels = null;
    await tick();
    check();
    for (let i = 0; i < 100 && ref.deref() !== undefined; i++) await tick();
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves buffers alone while they stay within the budget', async () => {
    const check = collectWhenBuffersGrow(64 * 1024 * 1024);
    check();
    let pixels: { page: Uint8Array } | null = { page: new Uint8Array(4 * 1024 * 1024).fill(1) };
    const ref = new WeakRef(pixels);
    pixels = null;
    await tick();
    check();
    for (let i = 0; i < 10; i++) await tick();
    expect(ref.deref()).toBeDefined();
  });
});
