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

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
