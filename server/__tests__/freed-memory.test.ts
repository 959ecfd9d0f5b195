import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deadBufferThreshold, onGlibc, releaseContents, returnFreedMemory } from '../freed-memory';

const glibc = onGlibc();

/** Resident memory of this process, from the kernel. */
function residentMb(): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
  return kb / 1024;
}

describe.runIf(glibc)('returnFreedMemory', () => {
  it('gives back memory freed in the middle of the heap, which glibc keeps by itself', () => {
    // malloc and free called directly: blocks below the mmap threshold come from a heap, and a
    // block kept at the top stops glibc from giving anything back on its own.
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)') as (size: number) => unknown;
    const memset = libc.func('void *memset(void *s, int c, size_t n)') as (
      pointer: unknown,
      c: number,
      n: number,
    ) => unknown;
    const free = libc.func('void free(void *ptr)') as (pointer: unknown) => void;
    const BLOCK = 16 * 1024;
    const blocks = Array.from({ length: 6400 }, () => {
      const block = malloc(BLOCK);
      memset(block, 1, BLOCK); // touched, so resident
      return block;
    });
    const keptAtTop = blocks.pop();
    for (const block of blocks) free(block);
    const held = residentMb();

    expect(returnFreedMemory()).toBe(true);
    const after = residentMb();
    free(keptAtTop);

    // 100 MB were freed; at least most of it leaves the process.
    expect(held - after).toBeGreaterThan(60);
  });
});

describe.runIf(glibc)('releaseContents', () => {
  it("gives back the pages of a buffer's contents at once, and touches nothing outside it", () => {
    const buffer = new Uint8Array(64 * 1024 * 1024).fill(7);
    // A view that starts and ends inside memory pages: those two pages are shared with the
    // bytes around it, so they are kept.
    const view = buffer.subarray(1000, buffer.length - 1000);
    const before = residentMb();

    const released = releaseContents(view);
    const after = residentMb();

    expect(released).toBeGreaterThan(view.length - 2 * 4096);
    expect(released).toBeLessThanOrEqual(view.length);
    expect(before - after).toBeGreaterThan(50);
    expect(buffer[999]).toBe(7);
    expect(buffer[buffer.length - 1000]).toBe(7);
    expect(view[view.length / 2]).toBe(0);
    // Still usable: what is written again is kept.
    view[view.length / 2] = 9;
    expect(view[view.length / 2]).toBe(9);
  });

  it('leaves small buffers alone', () => {
    const small = new Uint8Array(16 * 1024).fill(7);
    expect(releaseContents(small)).toBe(0);
    expect(small[8192]).toBe(7);
  });
});

describe('deadBufferThreshold', () => {
  it("is glibc's mmap threshold when the environment sets one, else nothing is given back early", () => {
    expect(deadBufferThreshold({ MALLOC_MMAP_THRESHOLD_: '131072' })).toBe(131072);
    expect(deadBufferThreshold({})).toBeNull();
    expect(deadBufferThreshold({ MALLOC_MMAP_THRESHOLD_: 'lots' })).toBeNull();
  });

  it('is set for the server and worker processes as npm runs them', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['serve', 'worker']) expect(scripts[name]).toMatch(/MALLOC_MMAP_THRESHOLD_=131072 /);
  });
});

describe.runIf(!glibc)('returnFreedMemory without glibc', () => {
  it('does nothing and says so', () => {
    expect(returnFreedMemory()).toBe(false);
  });
});
