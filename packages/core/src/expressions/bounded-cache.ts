/**
 * A map that keeps at most `capacity` entries, dropping the least recently used one.
 * Used for compiled expressions, which are looked up when routes are built, not per message.
 */
export class BoundedCache<TValue> {
  readonly #entries = new Map<string, TValue>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): TValue | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: TValue): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
  }

  clear(): void {
    this.#entries.clear();
  }
}
