import { describe, expect, it } from 'vitest';
import { createPrng, fnv1a } from '../random';

describe('the seeded generator', () => {
  it('draws the same numbers as it always did: the demo data and the fixture corpora depend on them', () => {
    const prng = createPrng(20240601);
    expect([prng.next(), prng.next(), prng.next()]).toEqual([0.35344086796976626, 0.02818377036601305, 0.6889668190851808]);
    expect(createPrng('corpus').int(1000)).toBe(777);
  });

  it('hashes text with 32-bit FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
  });

  it('gives a fork its own stream, the same for the same label at the same point', () => {
    const a = createPrng(7);
    const b = createPrng(7);
    expect(a.fork('pages').next()).toBe(b.fork('pages').next());
    expect(a.fork('pages').next()).not.toBe(a.fork('codes').next());
    expect(a.next()).toBe(b.next());
  });

  it('refuses to pick from an empty list', () => {
    expect(() => createPrng(1).pick([])).toThrow('pick from an empty list');
  });
});
