import { randomUUID } from "node:crypto";
import type { IdempotentRepository } from "@routekit/core";
import { checkMaxKeyChars, DEFAULT_KEY_RETENTION_MS, idempotentStoreKey } from "@routekit/core/internal";
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

/** One repository's connection, names, options and the claims this process holds. */
interface Scope {
  readonly client: Redis;
  readonly at: string;
  readonly prefix: string;
  readonly claimTimeoutMs: number;
  readonly expireAfterMs: number | undefined;
  /** The token of each claim this repository object holds, by key. */
  readonly tokens: Map<string, string>;
  /** Keys an `add` of this process is claiming right now. */
  readonly claiming: Set<string>;
  /**
   * Every claim of this repository object starts with its own id: a claim whose command timed out
   * but still ran on the server when bytes flowed again is then recognised as this consumer's.
   */
  readonly ownClaim: string;
  claims: number;
}

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
  const at = `${where}, idempotent repository '${name}'`;
  const scope: Scope = {
    client,
    at,
    prefix,
    claimTimeoutMs,
    expireAfterMs,
    tokens: new Map(),
    claiming: new Set(),
    ownClaim: `${CLAIM}${randomUUID()}:`,
    claims: 0,
  };
  return {
    add: (given) => addKey(scope, stored(given)),
    async contains(given) {
      const key = stored(given);
      return (
        (await redisCommand(at, `reading key '${prefix + key}'`, () => client.exists(prefix + key))) === 1
      );
    },
    remove: (given) => removeKey(scope, stored(given)),
    confirm: (given) => confirmKey(scope, stored(given)),
    async clear() {
      await deleteMatching(client, at, `${prefix}*`);
      scope.tokens.clear();
    },
  };
}

async function addKey(scope: Scope, key: string): Promise<boolean> {
  const redisKey = scope.prefix + key;
  if (scope.claiming.has(key) || scope.tokens.has(key)) {
    // Another exchange of this process is claiming or holds the key.
    const seen = await classify(scope, key, redisKey);
    if (seen !== undefined) return seen;
    throw new RedisStoreError(
      "KEY_IN_PROGRESS",
      `${scope.at}: key '${key}' is being claimed by another exchange of this consumer; the exchange fails so that the message is delivered again`,
    );
  }
  scope.claiming.add(key);
  try {
    return await claim(scope, key, redisKey);
  } finally {
    scope.claiming.delete(key);
  }
}

/** The key's value and the ms its claim has left (GET and PTTL in one transaction). */
function read(scope: Scope, redisKey: string): Promise<[string | null, number]> {
  return redisCommand(scope.at, `reading key '${redisKey}'`, async () => {
    const results = await scope.client.multi().get(redisKey).pttl(redisKey).exec();
    if (results === null) throw new Error("the transaction was aborted");
    for (const [error] of results) if (error !== null) throw error;
    return [results[0]?.[1], results[1]?.[1]] as [string | null, number];
  });
}

async function classify(scope: Scope, key: string, redisKey: string): Promise<boolean | undefined> {
  const [value, ttl] = await read(scope, redisKey);
  if (value === null) return undefined;
  if (value === DONE) return false;
  if (value.startsWith(CLAIM)) {
    throw new RedisStoreError(
      "KEY_IN_PROGRESS",
      `${scope.at}: key '${key}' is claimed by a consumer that has not finished with it (the claim expires in ${ttl} ms); the exchange fails so that the message is delivered again`,
    );
  }
  throw new RedisStoreError(
    "VALUE_CORRUPT",
    `${scope.at}: Redis key '${redisKey}' holds ${preview(value)}, expected '${DONE}' or a claim written by routekit`,
  );
}

/**
 * Sets a new claim on a free key (SET NX), or takes over a claim of this repository that no
 * exchange of this process holds: one whose command timed out, or whose release failed.
 */
async function claim(scope: Scope, key: string, redisKey: string): Promise<boolean> {
  const { client, claimTimeoutMs } = scope;
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = `${scope.ownClaim}${++scope.claims}`;
    const set = await sendClaim(scope, redisKey, token, () =>
      client.set(redisKey, token, "PX", claimTimeoutMs, "NX"),
    );
    if (set === "OK") {
      scope.tokens.set(key, token);
      return true;
    }
    const [value] = await read(scope, redisKey);
    if (value?.startsWith(scope.ownClaim)) {
      const taken = await sendClaim(scope, redisKey, token, () =>
        client.eval(TAKE_OVER, 1, redisKey, value, token, String(claimTimeoutMs)),
      );
      if (taken === 1) {
        scope.tokens.set(key, token);
        return true;
      }
      continue;
    }
    const seen = await classify(scope, key, redisKey);
    if (seen !== undefined) return seen;
    // The key expired or changed between the calls: claim again.
  }
  throw new RedisStoreError("COMMAND_FAILED", `${scope.at}: key '${key}' kept changing while it was claimed`);
}

/**
 * Sends a command that may set claim `token`. When it fails (timed out on a frozen connection,
 * say) it may still run once bytes flow again: a release of that token follows it on the same
 * connection, so that a late claim is undone at once instead of holding the key until it
 * expires. Redis runs one connection's commands in order; the release's own failure is ignored.
 */
async function sendClaim<TResult>(
  scope: Scope,
  redisKey: string,
  token: string,
  send: () => Promise<TResult>,
): Promise<TResult> {
  try {
    return await redisCommand(scope.at, `claiming key '${redisKey}'`, send);
  } catch (error) {
    scope.client.eval(RELEASE, 1, redisKey, token).catch(() => {});
    throw error;
  }
}

async function removeKey(scope: Scope, key: string): Promise<boolean> {
  const { client, at } = scope;
  const redisKey = scope.prefix + key;
  const token = scope.tokens.get(key);
  scope.tokens.delete(key);
  if (token === undefined) {
    return (await redisCommand(at, `deleting key '${redisKey}'`, () => client.del(redisKey))) === 1;
  }
  const removed = await redisCommand(at, `releasing key '${redisKey}'`, () =>
    client.eval(RELEASE, 1, redisKey, token),
  );
  return removed === 1;
}

async function confirmKey(scope: Scope, key: string): Promise<void> {
  const { client, at, expireAfterMs } = scope;
  const redisKey = scope.prefix + key;
  const token = scope.tokens.get(key);
  scope.tokens.delete(key);
  const confirmed =
    token !== undefined &&
    (await redisCommand(at, `confirming key '${redisKey}'`, () =>
      client.eval(CONFIRM, 1, redisKey, token, expireAfterMs === undefined ? "" : String(expireAfterMs)),
    )) === 1;
  if (!confirmed) {
    throw new RedisStoreError(
      "CLAIM_LOST",
      `${at}: the claim of key '${key}' ended before its exchange finished (claimTimeoutMs is ${scope.claimTimeoutMs}); another consumer may process the key again — raise claimTimeoutMs above the longest processing time`,
    );
  }
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
