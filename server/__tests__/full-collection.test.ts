import { describe, expect, it } from 'vitest';
import { collectGarbageSoon } from '../full-collection';

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
