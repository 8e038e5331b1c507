import { RoutekitError } from "../../errors/errors.js";
import type { IdempotentRepository } from "../../model/repositories.js";
import { checkMaxKeyChars, DEFAULT_MAX_KEY_CHARS, idempotentStoreKey } from "./idempotent-key.js";

// The repository contract is part of the route model (an idempotentConsumer step holds its repository).
export type { IdempotentRepository };

/** Options of `createMemoryIdempotentRepository`. */
export interface MemoryIdempotentRepositoryOptions {
  /** How many keys to keep; the least recently used goes first. Default 1000. */
  maximumSize?: number;
  /**
   * Longest key kept as given, in characters; a longer key is kept as its SHA-256 digest
   * (`sha256:<hex>`), so `maximumSize` keys take bounded memory whatever their size. Default 256.
   */
  maxKeyChars?: number;
}

/**
 * An in-memory repository that keeps the `maximumSize` most recently used keys, each at most
 * `maxKeyChars` characters (longer keys are kept as their digest).
 */
export class MemoryIdempotentRepository implements IdempotentRepository {
  readonly maximumSize: number;
  readonly maxKeyChars: number;
  // A Map keeps insertion order: re-inserting a key makes it the most recent, the first is the oldest.
  readonly #keys = new Map<string, true>();

  constructor(maximumSize: number, maxKeyChars: number = DEFAULT_MAX_KEY_CHARS) {
    this.maximumSize = maximumSize;
    this.maxKeyChars = maxKeyChars;
  }

  get size(): number {
    return this.#keys.size;
  }

  add(given: string): boolean {
    const key = idempotentStoreKey(given, this.maxKeyChars);
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
    return this.#keys.has(idempotentStoreKey(key, this.maxKeyChars));
  }

  remove(key: string): boolean {
    return this.#keys.delete(idempotentStoreKey(key, this.maxKeyChars));
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
  const maxKeyChars = checkMaxKeyChars(
    "createMemoryIdempotentRepository()",
    options.maxKeyChars,
    (message) => new RoutekitError("ROUTE_INVALID", message),
  );
  return new MemoryIdempotentRepository(maximumSize, maxKeyChars);
}
