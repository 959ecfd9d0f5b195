// A process's short-lived memory of database answers (sessions, list totals): entries kept until
// a given time, and a cap on their number. At the cap the whole cache is dropped rather than
// evicting one by one: entries live seconds, so that costs a few queries at most.
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly maxEntries: number) {}

  /** The value, unless missing or expired at `now`. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.until > now ? entry.value : undefined;
  }

  /** Kept until `until` (epoch ms). */
  set(key: string, value: V, until: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
