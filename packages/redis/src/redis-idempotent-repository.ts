import { randomUUID } from "node:crypto";
import { type IdempotentRepository, idempotentStoreKey } from "@routekit/core";
import { checkMaxKeyChars, DEFAULT_KEY_RETENTION_MS } from "@routekit/core/internal";
import type { Redis } from "ioredis";
import { redisCommand } from "./redis-command.js";
import { checkInteger, checkName } from "./redis-options.js";
import { preview, RedisStoreError } from "./redis-store-error.js";

/** Options of an idempotent repository on Redis. */
export interface RedisIdempotentRepositoryOptions {
  /**
   * How long a claim holds while its exchange is processed, in ms. A consumer that dies leaves
   * its claim until then; after it, the key may be processed again. Default 30000.
   */
  claimTimeoutMs?: number;
  /**
   * How long a processed key is remembered, in ms. Default 604800000 (7 days); `Infinity` keeps
   * keys until `remove` or `clear`.
   */
  expireAfterMs?: number;
  /**
   * Longest key stored as given, in characters; a longer key (or one starting with `sha256:`) is
   * stored as `sha256:` and its SHA-256 in hex, so a key's size is bounded whatever the message
   * sends. Default 256.
   */
  maxKeyChars?: number;
}

/** An idempotent repository whose keys every instance shares. */
export interface RedisIdempotentRepository extends IdempotentRepository {
  add(key: string): Promise<boolean>;
  contains(key: string): Promise<boolean>;
  remove(key: string): Promise<boolean>;
  confirm(key: string): Promise<void>;
  /** Forgets every key of this repository. */
  clear(): Promise<void>;
}

const DONE = "done";
const CLAIM = "claimed:";

// Confirm and release act only on this instance's own claim (its token), never on a claim that
// expired and was taken by another instance in between.
const CONFIRM = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  if ARGV[2] == '' then redis.call('SET', KEYS[1], '${DONE}') else redis.call('SET', KEYS[1], '${DONE}', 'PX', ARGV[2]) end
  return 1
end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
// Replaces this repository's own stale claim ARGV[1] with the new claim ARGV[2].
const TAKE_OVER = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/**
 * Keys live at `<prefix>:idempotent:<name>:<key>`: a claim (`claimed:<token>`, expiring after
 * `claimTimeoutMs`) while the exchange is processed, then `done` (expiring after `expireAfterMs`
 * when set). A key claimed by another consumer fails `add` with KEY_IN_PROGRESS, so the message
 * is delivered again later instead of being dropped while its first delivery may still fail.
 * A claim that timed out client-side never holds the key unnoticed: it is released right behind
 * the claim on the same connection, and should it run anyway (the connection was replaced), this
 * repository recognises it as its own (`claimed:<repository id>:<n>`) and takes it over.
 */
export function createRedisIdempotentRepository(
  client: Redis,
  where: string,
  keyPrefix: string,
  name: string,
  options: RedisIdempotentRepositoryOptions = {},
): RedisIdempotentRepository {
  const site = `idempotentRepository('${checkName("idempotentRepository()", name)}')`;
  const claimTimeoutMs = checkInteger(site, "claimTimeoutMs", options.claimTimeoutMs, 30_000, 1);
  const expireAfterMs =
    options.expireAfterMs === Number.POSITIVE_INFINITY
      ? undefined
      : checkInteger(site, "expireAfterMs", options.expireAfterMs, DEFAULT_KEY_RETENTION_MS, 1);
  const maxKeyChars = checkMaxKeyChars(
    site,
    options.maxKeyChars,
    (message) => new RedisStoreError("OPTIONS_INVALID", message),
  );
  const stored = (key: string): string => idempotentStoreKey(key, maxKeyChars);
  const prefix = `${keyPrefix}:idempotent:${name}:`;
  const tokens = new Map<string, string>();
  /** Keys an `add` of this process is claiming right now. */
  const claiming = new Set<string>();
  // Every claim of this repository object starts with its own id: a claim whose command timed out
  // but still ran on the server when bytes flowed again is then recognised as this consumer's.
  const ownClaim = `${CLAIM}${randomUUID()}:`;
  let claims = 0;
  const at = `${where}, idempotent repository '${name}'`;

  const inProgress = (key: string, ttl: number): never => {
    throw new RedisStoreError(
      "KEY_IN_PROGRESS",
      `${at}: key '${key}' is claimed by a consumer that has not finished with it (the claim expires in ${ttl} ms); the exchange fails so that the message is delivered again`,
    );
  };

  /** The key's value and the ms its claim has left (GET and PTTL in one transaction). */
  const read = (redisKey: string): Promise<[string | null, number]> =>
    redisCommand(at, `reading key '${redisKey}'`, async () => {
      const results = await client.multi().get(redisKey).pttl(redisKey).exec();
      if (results === null) throw new Error("the transaction was aborted");
      for (const [error] of results) if (error !== null) throw error;
      return [results[0]?.[1], results[1]?.[1]] as [string | null, number];
    });

  const classify = async (key: string, redisKey: string): Promise<boolean | undefined> => {
    const [value, ttl] = await read(redisKey);
    if (value === null) return undefined;
    if (value === DONE) return false;
    if (value.startsWith(CLAIM)) return inProgress(key, ttl);
    throw new RedisStoreError(
      "VALUE_CORRUPT",
      `${at}: Redis key '${redisKey}' holds ${preview(value)}, expected '${DONE}' or a claim written by routekit`,
    );
  };

  /**
   * Sets a new claim on a free key (SET NX), or takes over a claim of this repository that no
   * exchange of this process holds: one whose command timed out, or whose release failed.
   */
  const claim = async (key: string, redisKey: string): Promise<boolean> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = `${ownClaim}${++claims}`;
      const set = await sendClaim(redisKey, token, () =>
        client.set(redisKey, token, "PX", claimTimeoutMs, "NX"),
      );
      if (set === "OK") {
        tokens.set(key, token);
        return true;
      }
      const [value] = await read(redisKey);
      if (value?.startsWith(ownClaim)) {
        const taken = await sendClaim(redisKey, token, () =>
          client.eval(TAKE_OVER, 1, redisKey, value, token, String(claimTimeoutMs)),
        );
        if (taken === 1) {
          tokens.set(key, token);
          return true;
        }
        continue;
      }
      const seen = await classify(key, redisKey);
      if (seen !== undefined) return seen;
      // The key expired or changed between the calls: claim again.
    }
    throw new RedisStoreError("COMMAND_FAILED", `${at}: key '${key}' kept changing while it was claimed`);
  };

  /**
   * Sends a command that may set claim `token`. When it fails (timed out on a frozen connection,
   * say) it may still run once bytes flow again: a release of that token follows it on the same
   * connection, so that a late claim is undone at once instead of holding the key until it
   * expires. Redis runs one connection's commands in order; the release's own failure is ignored.
   */
  const sendClaim = async <TResult>(
    redisKey: string,
    token: string,
    send: () => Promise<TResult>,
  ): Promise<TResult> => {
    try {
      return await redisCommand(at, `claiming key '${redisKey}'`, send);
    } catch (error) {
      client.eval(RELEASE, 1, redisKey, token).catch(() => {});
      throw error;
    }
  };

  return {
    async add(given) {
      const key = stored(given);
      const redisKey = prefix + key;
      if (claiming.has(key) || tokens.has(key)) {
        // Another exchange of this process is claiming or holds the key.
        const seen = await classify(key, redisKey);
        if (seen !== undefined) return seen;
        throw new RedisStoreError(
          "KEY_IN_PROGRESS",
          `${at}: key '${key}' is being claimed by another exchange of this consumer; the exchange fails so that the message is delivered again`,
        );
      }
      claiming.add(key);
      try {
        return await claim(key, redisKey);
      } finally {
        claiming.delete(key);
      }
    },
    async contains(given) {
      const key = stored(given);
      return (
        (await redisCommand(at, `reading key '${prefix + key}'`, () => client.exists(prefix + key))) === 1
      );
    },
    async remove(given) {
      const key = stored(given);
      const redisKey = prefix + key;
      const token = tokens.get(key);
      tokens.delete(key);
      if (token === undefined) {
        return (await redisCommand(at, `deleting key '${redisKey}'`, () => client.del(redisKey))) === 1;
      }
      const removed = await redisCommand(at, `releasing key '${redisKey}'`, () =>
        client.eval(RELEASE, 1, redisKey, token),
      );
      return removed === 1;
    },
    async confirm(given) {
      const key = stored(given);
      const redisKey = prefix + key;
      const token = tokens.get(key);
      tokens.delete(key);
      const confirmed =
        token !== undefined &&
        (await redisCommand(at, `confirming key '${redisKey}'`, () =>
          client.eval(CONFIRM, 1, redisKey, token, expireAfterMs === undefined ? "" : String(expireAfterMs)),
        )) === 1;
      if (!confirmed) {
        throw new RedisStoreError(
          "CLAIM_LOST",
          `${at}: the claim of key '${key}' ended before its exchange finished (claimTimeoutMs is ${claimTimeoutMs}); another consumer may process the key again — raise claimTimeoutMs above the longest processing time`,
        );
      }
    },
    async clear() {
      await deleteMatching(client, at, `${prefix}*`);
      tokens.clear();
    },
  };
}

/** Deletes every key matching `pattern` (SCAN, not KEYS, so Redis is never blocked). */
export async function deleteMatching(client: Redis, where: string, pattern: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redisCommand(where, `scanning for '${pattern}'`, () =>
      client.scan(cursor, "MATCH", pattern, "COUNT", 500),
    );
    cursor = next;
    if (keys.length > 0) await redisCommand(where, "deleting keys", () => client.del(...keys));
  } while (cursor !== "0");
}
