// A per-isolate cache bounded by the total size of what it keeps (slots, bytes), least recently
// used out first: an isolate has 128 MB for everything, so each cache states its share.
export class SizedCache<V> {
  readonly #entries = new Map<string, V>();
  #kept = 0;

  constructor(
    readonly maxSize: number,
    readonly sizeOf: (value: V) => number,
  ) {}

  /** The entry under `key`, which then counts as the most recently used. */
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    // A value that could never fit is not kept, rather than emptying the cache for nothing.
    if (size > this.maxSize) return;
    for (const [oldestKey] of this.#entries) {
      if (this.#kept + size <= this.maxSize) break;
      this.delete(oldestKey);
    }
    this.#entries.set(key, value);
    this.#kept += size;
  }

  delete(key: string): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#kept -= this.sizeOf(value);
  }

  clear(): void {
    this.#entries.clear();
    this.#kept = 0;
  }
}
