/** How a cache weighs its entries: an estimate of each one's size in bytes, and the most it holds. */
export interface CacheWeight<TValue> {
  /** Most estimated bytes the entries may hold together; the least recently used leave first. */
  readonly maxBytes: number;
  /** The estimated size of one entry in bytes (its key included). */
  readonly sizeOf: (key: string, value: TValue) => number;
}

/**
 * A map that keeps at most `capacity` entries (and, when weighed, at most `maxBytes` estimated
 * bytes), dropping the least recently used ones. Used for compiled expressions and patterns:
 * caches of compilations of untrusted text are weighed, since one compiled program can be
 * megabytes. An entry heavier than `maxBytes` on its own is not kept.
 */
export class BoundedCache<TValue> {
  readonly #entries = new Map<string, { value: TValue; bytes: number }>();
  readonly #capacity: number;
  readonly #weight: CacheWeight<TValue> | undefined;
  #bytes = 0;

  constructor(capacity: number, weight?: CacheWeight<TValue>) {
    this.#capacity = capacity;
    this.#weight = weight;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The estimated bytes the entries hold (0 for a cache that is not weighed). */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): TValue | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: TValue): void {
    this.#remove(key);
    const bytes = this.#weight?.sizeOf(key, value) ?? 0;
    const maxBytes = this.#weight?.maxBytes ?? Number.POSITIVE_INFINITY;
    if (bytes > maxBytes) return;
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= this.#capacity || this.#bytes + bytes > maxBytes)
    ) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#remove(oldest.value);
    }
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
