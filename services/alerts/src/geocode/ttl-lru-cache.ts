/**
 * At most `size` entries, each for `ttlMs`; past the size the least recently read goes. A Map keeps insertion order,
 * so re-inserting on every read keeps the oldest-read entry first. (No LRU library is a dependency, and this is all
 * the geocoder needs.)
 */
export class TtlLruCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V) {
    if (this.size <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Removes `key` only while it still holds `value`, so a late failure never evicts a newer answer. */
  deleteIf(key: string, value: V) {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
