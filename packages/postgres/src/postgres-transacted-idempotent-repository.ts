import type { Exchange, IdempotentRepository } from "@routekit/core";
import { checkMaxKeyChars, DEFAULT_KEY_RETENTION_MS, idempotentStoreKey } from "@routekit/core/internal";
import type { PgPool, PgPoolClient } from "./pg-pool.js";
import { checkInteger, checkName } from "./postgres-options.js";
import { queryError, runQuery } from "./postgres-query.js";
import { describeError, PostgresStoreError } from "./postgres-store-error.js";
import { type OpenTransaction, openTransaction, TRANSACTION } from "./postgres-transaction.js";

/** Options of a transacted idempotent repository on PostgreSQL. */
export interface PostgresTransactedIdempotentRepositoryOptions {
  /**
   * How long claiming a key waits for another consumer's open transaction on the same key, in
   * ms; past it the exchange fails with KEY_IN_PROGRESS (retryable) and its message is delivered
   * again. Default 2000.
   */
  lockTimeoutMs?: number;
  /**
   * Longest pause between two statements of an open transaction, in ms: past it PostgreSQL ends
   * the session and rolls the transaction back, so a consumer that hangs cannot hold a key for
   * ever (its commit then fails and its message is delivered again). Default 30000.
   */
  idleTimeoutMs?: number;
  /** How long a processed key is remembered, in ms. Default 604800000 (7 days); `Infinity` keeps keys. */
  expireAfterMs?: number;
  /** Longest key stored as given, in characters; longer ones are stored as `sha256:` and their hash. Default 256. */
  maxKeyChars?: number;
}

/** An idempotent repository whose claim, the route's writes and the confirm are one transaction. */
export interface PostgresTransactedIdempotentRepository extends IdempotentRepository {
  add(key: string, exchange?: Exchange): Promise<boolean>;
  contains(key: string): Promise<boolean>;
  remove(key: string, exchange?: Exchange): Promise<boolean>;
  confirm(key: string, exchange?: Exchange): Promise<void>;
  /** Forgets every key of this repository. */
  clear(): Promise<void>;
}

/** What connecting needs to say about the pool when no connection is free. */
export interface PoolLimits {
  readonly maxConnections: number;
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
}

interface Scope {
  readonly pool: PgPool;
  readonly at: string;
  readonly site: string;
  readonly table: string;
  readonly name: string;
  readonly limits: PoolLimits;
  readonly begin: string;
  readonly expireAfterMs: number | undefined;
}

/**
 * Camel's transacted idempotent repository: `add` checks out a connection, begins a transaction
 * and inserts the key's row as processed inside it; the exchange carries the transaction (see
 * `postgresTransaction`) while the rest of the block runs; `confirm` commits, `remove` rolls back.
 * The row is invisible to others until the commit, and a second claim of the key blocks on it
 * (a row lock) until the first transaction ends, so the key, the route's writes and the confirm
 * are stored together or not at all — a consumer killed at any moment leaves nothing behind.
 */
export function createPostgresTransactedIdempotentRepository(
  pool: PgPool,
  where: string,
  table: string,
  limits: PoolLimits,
  name: string,
  options: PostgresTransactedIdempotentRepositoryOptions = {},
): PostgresTransactedIdempotentRepository {
  const { site, lockTimeoutMs, idleTimeoutMs, expireAfterMs, maxKeyChars } = checkedOptions(
    name,
    limits,
    options,
  );
  const stored = (key: string): string => idempotentStoreKey(key, maxKeyChars);
  const at = `${where}, transacted idempotent repository '${name}'`;
  const scope: Scope = {
    pool,
    at,
    site,
    table,
    name,
    limits,
    expireAfterMs,
    begin: `BEGIN; SET LOCAL lock_timeout = ${lockTimeoutMs}; SET LOCAL idle_in_transaction_session_timeout = ${idleTimeoutMs}`,
  };
  return {
    add: async (given, exchange) => claim(scope, stored(given), requireExchange(scope, "add", exchange)),
    async contains(given) {
      const found = await runQuery(
        at,
        `reading key '${stored(given)}'`,
        pool,
        `SELECT 1 FROM ${table} WHERE repository = $1 AND key = $2 AND state = 'done' AND (expires_at IS NULL OR expires_at > $3)`,
        [name, stored(given), Date.now()],
      );
      return found.rowCount > 0;
    },
    async remove(given, exchange) {
      if (exchange === undefined) {
        const removed = await runQuery(
          at,
          `deleting key '${stored(given)}'`,
          pool,
          `DELETE FROM ${table} WHERE repository = $1 AND key = $2`,
          [name, stored(given)],
        );
        return removed.rowCount > 0;
      }
      const transaction = TRANSACTION.get(exchange);
      if (transaction === undefined || transaction.ended) return false;
      await end(transaction, exchange, "ROLLBACK");
      return true;
    },
    async confirm(given, exchange) {
      const transaction = TRANSACTION.get(requireExchange(scope, "confirm", exchange));
      if (transaction === undefined || transaction.ended) {
        throw new PostgresStoreError(
          "TRANSACTION_ENDED",
          `${at}: confirming key '${stored(given)}' expected the exchange's open transaction, found ${transaction === undefined ? "none" : "one already ended"}; the key is not stored`,
        );
      }
      await end(transaction, exchange as Exchange, "COMMIT");
      for (const callback of transaction.callbacks) callback();
    },
    async clear() {
      await runQuery(at, "deleting every key", pool, `DELETE FROM ${table} WHERE repository = $1`, [name]);
    },
  };
}

/** The repository's options, checked, with their defaults; `site` names it in messages. */
function checkedOptions(
  name: string,
  limits: PoolLimits,
  options: PostgresTransactedIdempotentRepositoryOptions,
) {
  const site = `transactedIdempotentRepository('${checkName("transactedIdempotentRepository()", name)}')`;
  const lockTimeoutMs = checkInteger(site, "lockTimeoutMs", options.lockTimeoutMs, 2000, 1);
  const idleTimeoutMs = checkInteger(site, "idleTimeoutMs", options.idleTimeoutMs, 30_000, 1);
  if (lockTimeoutMs >= limits.queryTimeoutMs) {
    // The claim's statement would be cut off by the client before the server's lock wait ends.
    throw new PostgresStoreError(
      "OPTIONS_INVALID",
      `${site}: option 'lockTimeoutMs' must be below the store's queryTimeoutMs (${limits.queryTimeoutMs} ms), found ${lockTimeoutMs}; lower it or raise queryTimeoutMs in connectPostgres()`,
    );
  }
  const expireAfterMs =
    options.expireAfterMs === Number.POSITIVE_INFINITY
      ? undefined
      : checkInteger(site, "expireAfterMs", options.expireAfterMs, DEFAULT_KEY_RETENTION_MS, 1);
  const maxKeyChars = checkMaxKeyChars(
    site,
    options.maxKeyChars,
    (message) => new PostgresStoreError("OPTIONS_INVALID", message),
  );
  return { site, lockTimeoutMs, idleTimeoutMs, expireAfterMs, maxKeyChars };
}

function requireExchange(scope: Scope, method: string, exchange: Exchange | undefined): Exchange {
  if (exchange === undefined || exchange === null || typeof exchange !== "object") {
    throw new PostgresStoreError(
      "TRANSACTION_MISSING",
      `${scope.site}.${method}(key, exchange): expected the exchange being processed as second argument (the idempotent consumer passes it), found ${exchange === null ? "null" : typeof exchange}; use the repository as idempotentConsumer(key, { repository })`,
    );
  }
  return exchange;
}

/** Checks out a client, begins the transaction and inserts the key; true when this exchange holds it now. */
async function claim(scope: Scope, key: string, exchange: Exchange): Promise<boolean> {
  const { at, table, name } = scope;
  const existing = TRANSACTION.get(exchange);
  if (existing !== undefined && !existing.ended) {
    throw new PostgresStoreError(
      "TRANSACTION_MISSING",
      `${at}: exchange ${exchange.id} already holds a transaction (${existing.at}); transacted idempotent consumers cannot be nested on one exchange`,
    );
  }
  const client = await checkOut(scope);
  const transaction = openTransaction(`${at}, key '${key}'`, client);
  try {
    await runQuery(at, `beginning the transaction of key '${key}'`, client, scope.begin);
  } catch (error) {
    client.removeListener("error", transaction.onError);
    client.release(true);
    throw error;
  }
  const now = Date.now();
  let claimed: boolean;
  try {
    // Blocks while another open transaction holds the key's row (up to lock_timeout).
    const inserted = await client.query(
      `INSERT INTO ${table} (repository, key, state, token, expires_at) VALUES ($1, $2, 'done', NULL, $3)
       ON CONFLICT (repository, key) DO UPDATE SET state = 'done', token = NULL, expires_at = EXCLUDED.expires_at
       WHERE ${table}.expires_at IS NOT NULL AND ${table}.expires_at <= $4`,
      [name, key, scope.expireAfterMs === undefined ? null : now + scope.expireAfterMs, now],
    );
    claimed = inserted.rowCount === 1;
  } catch (error) {
    await end(transaction, exchange, "ROLLBACK").catch(() => {});
    if ((error as { code?: unknown }).code === "55P03") {
      throw new PostgresStoreError(
        "KEY_IN_PROGRESS",
        `${at}: key '${key}' is held by another consumer's open transaction (waited lockTimeoutMs); the exchange fails so that the message is delivered again`,
        { cause: error },
      );
    }
    throw queryError(at, `claiming key '${key}'`, error);
  }
  if (!claimed) {
    // A duplicate: nothing of it is kept, the connection goes back at once.
    await end(transaction, exchange, "ROLLBACK");
    return false;
  }
  TRANSACTION.set(exchange, transaction);
  return true;
}

/** A client of the pool, or POOL_EXHAUSTED saying why none came. */
async function checkOut(scope: Scope): Promise<PgPoolClient> {
  try {
    return await scope.pool.connect();
  } catch (error) {
    if (/timeout exceeded when trying to connect/i.test(describeError(error))) {
      throw new PostgresStoreError(
        "POOL_EXHAUSTED",
        `${scope.at}: no connection of the pool became free within connectTimeoutMs (${scope.limits.connectTimeoutMs} ms); maxConnections is ${scope.limits.maxConnections} and each exchange inside a transacted idempotent consumer holds one connection until its block ends — raise maxConnections above the number of exchanges processed at once (e.g. the consumer's prefetch), or lower that number`,
        { cause: error },
      );
    }
    throw queryError(scope.at, "connecting", error);
  }
}

/** Commits or rolls back, then gives the client back (destroyed when its connection broke). */
async function end(
  transaction: OpenTransaction,
  exchange: Exchange,
  statement: "COMMIT" | "ROLLBACK",
): Promise<void> {
  transaction.ended = true;
  if (TRANSACTION.get(exchange) === transaction) TRANSACTION.set(exchange, undefined);
  const { client } = transaction;
  if (statement === "ROLLBACK" && transaction.brokenBy !== undefined) {
    // The connection broke: the server ended the session, which rolled the transaction back.
    client.removeListener("error", transaction.onError);
    client.release(transaction.brokenBy);
    return;
  }
  try {
    const result = await client.query(statement);
    // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK.
    if (statement === "COMMIT" && (result as { command?: string }).command === "ROLLBACK") {
      throw new PostgresStoreError(
        "QUERY_FAILED",
        `${transaction.at}: the transaction was rolled back instead of committed (a statement in it failed); nothing of it is stored`,
      );
    }
  } catch (error) {
    if (!(error instanceof PostgresStoreError)) transaction.brokenBy ??= error as Error;
    throw queryError(transaction.at, statement === "COMMIT" ? "committing" : "rolling back", error);
  } finally {
    client.removeListener("error", transaction.onError);
    client.release(transaction.brokenBy ?? false);
  }
}
