import { RoutekitError } from "../../errors/errors.js";

/**
 * Where an idempotent consumer remembers the keys it has seen. `add` claims a key atomically:
 * it returns false when the key is already there. Methods may return promises (a database).
 * A repository shared between processes (`@routekit/redis`, `@routekit/postgres`) may also
 * throw from `add` while another instance holds the key unconfirmed: the exchange then fails
 * without running the rest of the block, so a broker delivers its message again later instead of
 * it being dropped while the first delivery may still fail. A rejected `confirm` fails the
 * exchange too.
 */
export interface IdempotentRepository {
  /** Adds `key`; false when it was already present (a duplicate). */
  add(key: string): boolean | Promise<boolean>;
  contains(key: string): boolean | Promise<boolean>;
  /** Forgets `key` (processing failed: a retry may go through). */
  remove(key: string): void | Promise<void> | boolean | Promise<boolean>;
  /** Called once the exchange completed without an error (e.g. to commit a pending claim). */
  confirm?(key: string): void | Promise<void>;
}

/** Options of `createMemoryIdempotentRepository`. */
export interface MemoryIdempotentRepositoryOptions {
  /** How many keys to keep; the least recently used goes first. Default 1000. */
  maximumSize?: number;
}

/** An in-memory repository that keeps the `maximumSize` most recently used keys. */
export class MemoryIdempotentRepository implements IdempotentRepository {
  readonly maximumSize: number;
  // A Map keeps insertion order: re-inserting a key makes it the most recent, the first is the oldest.
  readonly #keys = new Map<string, true>();

  constructor(maximumSize: number) {
    this.maximumSize = maximumSize;
  }

  get size(): number {
    return this.#keys.size;
  }

  add(key: string): boolean {
    if (this.#keys.has(key)) {
      this.#touch(key);
      return false;
    }
    this.#keys.set(key, true);
    if (this.#keys.size > this.maximumSize) {
      const first = this.#keys.keys().next();
      if (first.done !== true) this.#keys.delete(first.value);
    }
    return true;
  }

  contains(key: string): boolean {
    return this.#keys.has(key);
  }

  remove(key: string): boolean {
    return this.#keys.delete(key);
  }

  clear(): void {
    this.#keys.clear();
  }

  #touch(key: string): void {
    this.#keys.delete(key);
    this.#keys.set(key, true);
  }
}

/** Creates the bounded in-memory repository an idempotent consumer uses by default. */
export function createMemoryIdempotentRepository(
  options: MemoryIdempotentRepositoryOptions = {},
): MemoryIdempotentRepository {
  const maximumSize = options.maximumSize ?? 1000;
  if (typeof maximumSize !== "number" || !Number.isInteger(maximumSize) || maximumSize < 1) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `createMemoryIdempotentRepository() option 'maximumSize' must be an integer >= 1 (found ${String(maximumSize)})`,
    );
  }
  return new MemoryIdempotentRepository(maximumSize);
}
