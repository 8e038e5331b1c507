import type * as Crypto from "node:crypto";
import { lazyModule } from "../../support/lazy-module.js";

/** node:crypto, loaded by the first key too long to store as given. */
const crypto = lazyModule<typeof Crypto>("node:crypto", import.meta.url);

/** The longest idempotency key a repository stores as given, by default (longer ones: their digest). */
export const DEFAULT_MAX_KEY_CHARS = 256;

/**
 * How long the shared stores (Redis, PostgreSQL) remember a processed key by default: 7 days
 * (`expireAfterMs`; `Infinity` keeps keys until removed).
 */
export const DEFAULT_KEY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const DIGEST_PREFIX = "sha256:";
const MIN_MAX_KEY_CHARS = DIGEST_PREFIX.length + 64;

/**
 * The key an idempotent repository stores for `key`: the key itself when it has at most
 * `maxKeyChars` characters, otherwise `sha256:` and the hex SHA-256 of its UTF-8 bytes (71
 * characters), so a key of any size takes the same bounded room in memory, in Redis or in a
 * PostgreSQL index. A key that itself starts with `sha256:` is always stored as its digest, so no
 * key can be sent that equals the stored form of another.
 */
export function idempotentStoreKey(key: string, maxKeyChars: number = DEFAULT_MAX_KEY_CHARS): string {
  if (key.length <= maxKeyChars && !key.startsWith(DIGEST_PREFIX)) return key;
  return DIGEST_PREFIX + crypto().createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * Checks a repository's `maxKeyChars` option (undefined: the default): at least 71, the length of
 * a stored digest (a lower limit would store keys longer than they came).
 */
export function checkMaxKeyChars(where: string, value: unknown, errorOf: (message: string) => Error): number {
  if (value === undefined) return DEFAULT_MAX_KEY_CHARS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < MIN_MAX_KEY_CHARS) {
    throw errorOf(
      `${where} option 'maxKeyChars' must be an integer >= ${MIN_MAX_KEY_CHARS} (the length of a stored digest), found ${String(value)}`,
    );
  }
  return value;
}
