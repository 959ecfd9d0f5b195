// The project's one seeded random generator (mulberry32): the demo programme, the mock world and
// the test fixtures draw from it, so the same seed gives the same data on every run and machine.

export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Standard normal (Box-Muller). */
  gaussian(): number;
  /** An independent stream for a sub-task, so adding draws in one place does not shift others. */
  fork(label: string): Prng;
}

/** 32-bit FNV-1a of a text; `basis` starts another, independent hash. */
export function fnv1a(text: string, basis = 0x811c9dc5): number {
  let value = basis;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** mulberry32 from `seed`: each call of `next` the next number, uniform in [0, 1); `state` where it is. */
function generator(seed: number): { next: () => number; state: () => number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, state: () => state };
}

/** A generator with the draws the data needs; a text seed is hashed first. */
export function createPrng(seed: number | string): Prng {
  const { next, state } = generator(typeof seed === 'number' ? seed : fnv1a(seed));
  const prng: Prng = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    gaussian: () => {
      const u = Math.max(next(), 1e-12);
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    fork: (label) => createPrng(fnv1a(`${state()}:${label}`)),
  };
  return prng;
}
