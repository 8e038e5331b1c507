import { RoutekitError } from "../../errors/errors.js";
import type { IdempotentRepository } from "../../model/repositories.js";

// The repository contract is part of the route model (an idempotentConsumer step holds its repository).
export type { IdempotentRepository };

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
