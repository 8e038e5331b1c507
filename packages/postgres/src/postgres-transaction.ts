import { definePropertyKey, type Exchange } from "@routekit/core";
import type { PgPoolClient } from "./pg-pool.js";
import { runQuery } from "./postgres-query.js";
import { PostgresStoreError } from "./postgres-store-error.js";

/**
 * The database transaction an exchange runs in while a transacted idempotent consumer holds its
 * key: statements run on it commit together with the key, or not at all.
 */
export interface PostgresTransaction {
  /** Runs one statement with `$1`-style values inside the transaction. */
  query<TRow extends object = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: TRow[]; rowCount: number }>;
  /** Runs `callback` once the transaction committed (not after a rollback). */
  afterCommit(callback: () => void): void;
}

/** The open transaction of an exchange and what ends it; kept on the exchange while it is processed. */
export interface OpenTransaction extends PostgresTransaction {
  /** Where the transaction belongs, for error messages: store, repository and key. */
  readonly at: string;
  readonly client: PgPoolClient;
  /** True once committed or rolled back. */
  ended: boolean;
  /** Set when the connection broke while checked out; the client is then destroyed, not reused. */
  brokenBy: Error | undefined;
  /** Listens to the client's errors while it is checked out (an unheard one would end the process). */
  readonly onError: (error: Error) => void;
  readonly callbacks: Array<() => void>;
}

/** The exchange property holding the open transaction: local to this process, never copied or sent. */
export const TRANSACTION = definePropertyKey<OpenTransaction>({
  name: "routekit.postgres.transaction",
  transient: true,
});

/** Makes the transaction object of a checked-out client on which BEGIN has run. */
export function openTransaction(at: string, client: PgPoolClient): OpenTransaction {
  const transaction: OpenTransaction = {
    at,
    client,
    ended: false,
    brokenBy: undefined,
    onError: (error) => {
      transaction.brokenBy ??= error;
    },
    callbacks: [],
    async query(text, values = []) {
      if (transaction.ended) {
        throw new PostgresStoreError(
          "TRANSACTION_ENDED",
          `${at}: a statement was sent after the transaction ended (it was committed or rolled back when the idempotent consumer's block finished); run statements inside the block`,
        );
      }
      return runQuery(at, "running a statement in the transaction", client, text, values);
    },
    afterCommit(callback) {
      transaction.callbacks.push(callback);
    },
  };
  client.on("error", transaction.onError);
  return transaction;
}

/**
 * The PostgreSQL transaction of an exchange inside `idempotentConsumer(key, { repository })` with
 * a repository from `store.transactedIdempotentRepository(name)`: what the route writes through
 * it commits together with the consumed key, so after a crash either both are there or neither.
 * Throws TRANSACTION_MISSING for an exchange outside such a block.
 */
export function postgresTransaction(exchange: Exchange): PostgresTransaction {
  const transaction = TRANSACTION.get(exchange);
  if (transaction === undefined) {
    throw new PostgresStoreError(
      "TRANSACTION_MISSING",
      `postgresTransaction(): expected an exchange inside idempotentConsumer(key, { repository }) with a repository from transactedIdempotentRepository(), found exchange ${exchange.id}${exchange.routeId === undefined ? "" : ` of route '${exchange.routeId}'`} with no open transaction`,
    );
  }
  if (transaction.ended) {
    throw new PostgresStoreError(
      "TRANSACTION_ENDED",
      `postgresTransaction(): the transaction of exchange ${exchange.id} (${transaction.at}) has already ended; use it inside the idempotent consumer's block`,
    );
  }
  return transaction;
}
