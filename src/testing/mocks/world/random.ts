// The mock world's only source of chance: a seeded generator (mulberry32), so the same seed builds
// the same world on every run, and ids that come from a name, not from the clock.

export interface Random {
  /** A number in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    chance: (probability) => next() < probability,
  };
}

/** 32-bit FNV-1a of a text. */
function hash(text: string, basis = 0x811c9dc5): number {
  let value = basis;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

const hex = (value: number) => value.toString(16).padStart(8, '0');

/** A UUID (version 4 layout) that is always the same for the same key. */
export function stableUuid(key: string): string {
  const a = hex(hash(key));
  const b = hex(hash(key, 0x01000193));
  const c = hex(hash(`${key}#`, 0x2545f491));
  const d = hex(hash(`#${key}`, 0x9e3779b9));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${((parseInt(c[0] as string, 16) & 0x3) | 0x8).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}
