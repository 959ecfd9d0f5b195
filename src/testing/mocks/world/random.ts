// The mock world's only source of chance: the project's seeded generator (demo/random), so the
// same seed builds the same world on every run, and ids that come from a name, not from the clock.
import { createPrng, fnv1a } from '../../../../demo/random';

export interface Random {
  /** A number in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function seededRandom(seed: number): Random {
  const prng = createPrng(seed);
  return {
    next: prng.next,
    int: (min, max) => min + prng.int(max - min + 1),
    pick: (items) => items[prng.int(items.length)] as (typeof items)[number],
    chance: prng.chance,
  };
}

const hex = (value: number) => value.toString(16).padStart(8, '0');

/** A UUID (version 4 layout) that is always the same for the same key. */
export function stableUuid(key: string): string {
  const a = hex(fnv1a(key));
  const b = hex(fnv1a(key, 0x01000193));
  const c = hex(fnv1a(`${key}#`, 0x2545f491));
  const d = hex(fnv1a(`#${key}`, 0x9e3779b9));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${((parseInt(c[0] as string, 16) & 0x3) | 0x8).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}
