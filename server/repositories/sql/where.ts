// A WHERE clause built from optional filters, with numbered parameters, so list queries can
// share one filter for their count and their page.

export class Where {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a parameter and returns its placeholder ($1, $2...). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds a condition; `build` receives the placeholder of `value`. */
  add(build: (placeholder: string) => string, value: unknown): this {
    this.conditions.push(build(this.param(value)));
    return this;
  }

  /** Adds a condition only when the value is given (an optional filter). */
  addIf(value: unknown, build: (placeholder: string) => string): this {
    if (value !== undefined && value !== null && value !== '') this.add(build, value);
    return this;
  }

  get sql(): string {
    return this.conditions.length === 0 ? '' : `WHERE ${this.conditions.join(' AND ')}`;
  }
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text.toLowerCase())}%`;
}

/** A LIKE pattern matching values that start with `text`. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/** The largest human_id (bigint). */
const MAX_HUMAN_ID = 2n ** 63n - 1n;

/**
 * The student IDs that start with `digits`, as ranges of numbers in increasing order: "45" is 45,
 * 450-459, 4500-4599 and so on up to the largest bigint. IDs are written without leading zeros,
 * so "0" is only 0 and "05" none.
 */
export function humanIdRanges(digits: string): { lo: string; hi: string }[] {
  if (!/^[0-9]+$/.test(digits)) throw new Error(`not digits: ${digits}`);
  if (digits.startsWith('0')) return digits === '0' ? [{ lo: '0', hi: '0' }] : [];
  const ranges: { lo: string; hi: string }[] = [];
  const start = BigInt(digits);
  for (let scale = 1n; start * scale <= MAX_HUMAN_ID; scale *= 10n) {
    const hi = (start + 1n) * scale - 1n;
    ranges.push({ lo: String(start * scale), hi: String(hi < MAX_HUMAN_ID ? hi : MAX_HUMAN_ID) });
  }
  return ranges;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
