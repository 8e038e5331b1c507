import { randomUUID } from "node:crypto";
import type { IdempotentRepository } from "@routekit/core";
import { checkMaxKeyChars, DEFAULT_KEY_RETENTION_MS, idempotentStoreKey } from "@routekit/core/internal";
import type { PgPool } from "./pg-pool.js";
import { checkInteger, checkName } from "./postgres-options.js";
import { runQuery } from "./postgres-query.js";
import { PostgresStoreError, preview } from "./postgres-store-error.js";

/** Options of an idempotent repository on PostgreSQL. */
export interface PostgresIdempotentRepositoryOptions {
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

/** How often claiming also deletes expired rows (see `purgeExpired`). */
const PURGE_EVERY_MS = 60_000;

/** An idempotent repository whose keys every instance shares. */
export interface PostgresIdempotentRepository extends IdempotentRepository {
  add(key: string): Promise<boolean>;
  contains(key: string): Promise<boolean>;
  remove(key: string): Promise<boolean>;
  confirm(key: string): Promise<void>;
  /** Forgets every key of this repository. */
  clear(): Promise<void>;
  /** Deletes the rows of expired claims and keys (they are ignored anyway); resolves with how many. */
  purgeExpired(): Promise<number>;
}

/** What every query of one repository needs, and the tokens of the claims this instance holds. */
interface Scope {
  readonly pool: PgPool;
  readonly at: string;
  readonly table: string;
  readonly name: string;
  readonly claimTimeoutMs: number;
  readonly expireAfterMs: number | undefined;
  readonly tokens: Map<string, string>;
}

/**
 * One row per key in `<prefix>idempotent`: `claimed` with a token and an expiry while the
 * exchange is processed, then `done`. Claiming is one `INSERT … ON CONFLICT DO UPDATE … WHERE
 * expired`, so of two instances exactly one gets the row; a key claimed by another consumer fails
 * `add` with KEY_IN_PROGRESS, so the message is delivered again instead of being dropped.
 */
export function createPostgresIdempotentRepository(
  pool: PgPool,
  where: string,
  table: string,
  name: string,
  options: PostgresIdempotentRepositoryOptions = {},
): PostgresIdempotentRepository {
  const site = `idempotentRepository('${checkName("idempotentRepository()", name)}')`;
  const claimTimeoutMs = checkInteger(site, "claimTimeoutMs", options.claimTimeoutMs, 30_000, 1);
  const expireAfterMs =
    options.expireAfterMs === Number.POSITIVE_INFINITY
      ? undefined
      : checkInteger(site, "expireAfterMs", options.expireAfterMs, DEFAULT_KEY_RETENTION_MS, 1);
  const maxKeyChars = checkMaxKeyChars(
    site,
    options.maxKeyChars,
    (message) => new PostgresStoreError("OPTIONS_INVALID", message),
  );
  const stored = (key: string): string => idempotentStoreKey(key, maxKeyChars);
  const at = `${where}, idempotent repository '${name}'`;
  const scope: Scope = { pool, at, table, name, claimTimeoutMs, expireAfterMs, tokens: new Map() };
  const purgeExpired = async (): Promise<number> => {
    const purged = await runQuery(
      at,
      "deleting expired keys",
      pool,
      `DELETE FROM ${table} WHERE repository = $1 AND expires_at IS NOT NULL AND expires_at <= $2`,
      [name, Date.now()],
    );
    return purged.rowCount;
  };
  // Expired rows are ignored at once and deleted by the first claim a minute or more after the last purge.
  let purgedAt = Date.now();
  return {
    async add(given) {
      if (expireAfterMs !== undefined && Date.now() - purgedAt >= PURGE_EVERY_MS) {
        purgedAt = Date.now();
        await purgeExpired();
      }
      return addKey(scope, stored(given));
    },
    async contains(given) {
      const key = stored(given);
      const found = await runQuery(
        at,
        `reading key '${key}'`,
        pool,
        `SELECT 1 FROM ${table} WHERE repository = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [name, key, Date.now()],
      );
      return found.rowCount > 0;
    },
    remove: (given) => removeKey(scope, stored(given)),
    confirm: (given) => confirmKey(scope, stored(given)),
    async clear() {
      await runQuery(at, "deleting every key", pool, `DELETE FROM ${table} WHERE repository = $1`, [name]);
      scope.tokens.clear();
    },
    purgeExpired,
  };
}

async function addKey(scope: Scope, key: string): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await claim(scope, key);
    if (result !== undefined) return result;
  }
  throw new PostgresStoreError(
    "QUERY_FAILED",
    `${scope.at}: key '${key}' kept changing while it was claimed`,
  );
}

/** True when this call claimed `key`, false when it is done, undefined when its row vanished meanwhile. */
async function claim(scope: Scope, key: string): Promise<boolean | undefined> {
  const { at, pool, table, name } = scope;
  const token = randomUUID();
  const now = Date.now();
  const claimed = await runQuery(
    at,
    `claiming key '${key}'`,
    pool,
    `INSERT INTO ${table} (repository, key, state, token, expires_at) VALUES ($1, $2, 'claimed', $3, $4)
     ON CONFLICT (repository, key) DO UPDATE SET state = 'claimed', token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
     WHERE ${table}.expires_at IS NOT NULL AND ${table}.expires_at <= $5`,
    [name, key, token, now + scope.claimTimeoutMs, now],
  );
  if (claimed.rowCount === 1) {
    scope.tokens.set(key, token);
    return true;
  }
  const found = await runQuery<{ state: string; expires_at: string | null }>(
    at,
    `reading key '${key}'`,
    pool,
    `SELECT state, expires_at FROM ${table} WHERE repository = $1 AND key = $2`,
    [name, key],
  );
  const row = found.rows[0];
  if (row === undefined) return undefined;
  if (row.state === "done") return false;
  if (row.state === "claimed") {
    const left =
      row.expires_at === null ? "never" : `in ${Math.max(0, Number(row.expires_at) - Date.now())} ms`;
    throw new PostgresStoreError(
      "KEY_IN_PROGRESS",
      `${at}: key '${key}' is claimed by a consumer that has not finished with it (the claim expires ${left}); the exchange fails so that the message is delivered again`,
    );
  }
  throw new PostgresStoreError(
    "VALUE_CORRUPT",
    `${at}: the row of key '${key}' in ${table} has state ${preview(row.state)}, expected 'claimed' or 'done'`,
  );
}

async function removeKey(scope: Scope, key: string): Promise<boolean> {
  const { at, pool, table, name } = scope;
  const token = scope.tokens.get(key);
  scope.tokens.delete(key);
  const removed =
    token === undefined
      ? await runQuery(
          at,
          `deleting key '${key}'`,
          pool,
          `DELETE FROM ${table} WHERE repository = $1 AND key = $2`,
          [name, key],
        )
      : await runQuery(
          at,
          `releasing key '${key}'`,
          pool,
          `DELETE FROM ${table} WHERE repository = $1 AND key = $2 AND token = $3`,
          [name, key, token],
        );
  return removed.rowCount > 0;
}

async function confirmKey(scope: Scope, key: string): Promise<void> {
  const { at, pool, table, name, expireAfterMs } = scope;
  const token = scope.tokens.get(key);
  scope.tokens.delete(key);
  const confirmed =
    token !== undefined &&
    (
      await runQuery(
        at,
        `confirming key '${key}'`,
        pool,
        `UPDATE ${table} SET state = 'done', token = NULL, expires_at = $4 WHERE repository = $1 AND key = $2 AND token = $3`,
        [name, key, token, expireAfterMs === undefined ? null : Date.now() + expireAfterMs],
      )
    ).rowCount === 1;
  if (!confirmed) {
    throw new PostgresStoreError(
      "CLAIM_LOST",
      `${at}: the claim of key '${key}' ended before its exchange finished (claimTimeoutMs is ${scope.claimTimeoutMs}); another consumer may process the key again — raise claimTimeoutMs above the longest processing time`,
    );
  }
}
