import type { CheckpointStore, Plugin } from "@routekit/core";
import pg from "pg";
import {
  createPostgresAggregationRepository,
  type PostgresAggregationRepository,
  type PostgresAggregationRepositoryOptions,
} from "./postgres-aggregation-repository.js";
import { createPostgresCheckpointStore } from "./postgres-checkpoint-store.js";
import {
  createPostgresIdempotentRepository,
  type PostgresIdempotentRepository,
  type PostgresIdempotentRepositoryOptions,
} from "./postgres-idempotent-repository.js";
import { type PostgresStoreOptions, resolvePostgresOptions } from "./postgres-options.js";
import { createPostgresOutbox, type PostgresOutboxOptions } from "./postgres-outbox.js";
import { describeError, PostgresStoreError } from "./postgres-store-error.js";
import {
  createPostgresTransactedIdempotentRepository,
  type PostgresTransactedIdempotentRepository,
  type PostgresTransactedIdempotentRepositoryOptions,
} from "./postgres-transacted-idempotent-repository.js";
import { dropSchema, migrateSchema, schemaStatements, tableNames } from "./schema.js";

/** A connection pool to PostgreSQL that makes repositories; close it after the context stopped. */
export interface PostgresStore {
  /** `host:port` of the server. */
  readonly address: string;
  /** Creates the tables when they are missing (safe to call again, and from several instances at once). */
  migrate(): Promise<void>;
  /** Drops the tables of this store's `tablePrefix`, with every repository's rows. */
  dropTables(): Promise<void>;
  /** The SQL `migrate()` runs, for a migration tool of your own. */
  schema(): string[];
  /** An idempotent repository; `name` separates its keys from other repositories'. */
  idempotentRepository(
    name: string,
    options?: PostgresIdempotentRepositoryOptions,
  ): PostgresIdempotentRepository;
  /**
   * An idempotent repository whose claim, the route's writes (through `postgresTransaction(exchange)`)
   * and the confirm commit in one transaction: exactly once for effects written to this database.
   * Each exchange in its block holds one connection of the pool until the block ends.
   */
  transactedIdempotentRepository(
    name: string,
    options?: PostgresTransactedIdempotentRepositoryOptions,
  ): PostgresTransactedIdempotentRepository;
  /**
   * The outbox: a plugin with the `outbox:` component (`.to("outbox:amqp:queue:orders")` inside a
   * transacted idempotent consumer stores the message in the exchange's transaction) and the relay
   * that sends committed messages, started and stopped with the context.
   */
  outbox(options?: PostgresOutboxOptions): Plugin;
  /** An aggregation repository; `name` separates its groups from other repositories'. */
  aggregationRepository(
    name: string,
    options?: PostgresAggregationRepositoryOptions,
  ): PostgresAggregationRepository;
  /** A checkpoint store (durable llm runs) in the `checkpoint` table; `name` separates its records from other stores'. */
  checkpointStore(name: string): CheckpointStore;
  /** Closes every connection of the pool. */
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL and checks that it answers; fails with CONNECTION_FAILED naming host
 * and port when it does not. While running, a statement on a lost connection fails
 * (QUERY_FAILED), so the exchange fails and its message is delivered again; the pool opens new
 * connections when the server is back.
 */
export async function connectPostgres(options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const resolved = resolvePostgresOptions(options);
  const address = `${resolved.host}:${resolved.port}`;
  const where = `PostgreSQL at ${address}`;
  const pool = new pg.Pool({
    host: resolved.host,
    port: resolved.port,
    database: resolved.database,
    user: resolved.user,
    password: resolved.password,
    max: resolved.maxConnections,
    connectionTimeoutMillis: resolved.connectTimeoutMs,
    query_timeout: resolved.queryTimeoutMs,
    idleTimeoutMillis: 10_000,
  });
  // An idle connection that breaks reports here; without a listener it would end the process.
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw new PostgresStoreError(
      "CONNECTION_FAILED",
      `could not connect to PostgreSQL at ${address} (database '${resolved.database}', user '${resolved.user}'): ${describeError(error)}`,
      { cause: error },
    );
  }
  const tables = tableNames(resolved.tablePrefix);
  let closed: Promise<void> | undefined;
  const store: PostgresStore = {
    address,
    migrate: () => migrateSchema(where, pool, resolved.tablePrefix),
    dropTables: () => dropSchema(where, pool, resolved.tablePrefix),
    schema: () => schemaStatements(resolved.tablePrefix),
    idempotentRepository: (name, repositoryOptions) =>
      createPostgresIdempotentRepository(pool, where, tables.idempotent, name, repositoryOptions),
    transactedIdempotentRepository: (name, repositoryOptions) =>
      createPostgresTransactedIdempotentRepository(
        pool,
        where,
        tables.idempotent,
        {
          maxConnections: resolved.maxConnections,
          connectTimeoutMs: resolved.connectTimeoutMs,
          queryTimeoutMs: resolved.queryTimeoutMs,
        },
        name,
        repositoryOptions,
      ),
    outbox: (outboxOptions) => createPostgresOutbox(pool, where, tables.outbox, outboxOptions),
    aggregationRepository: (name, repositoryOptions) =>
      createPostgresAggregationRepository(pool, where, tables, name, repositoryOptions),
    checkpointStore: (name) => createPostgresCheckpointStore(pool, where, tables.checkpoints, name),
    close: () => {
      closed ??= pool.end();
      return closed;
    },
  };
  if (resolved.migrate) {
    try {
      await store.migrate();
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
  }
  return store;
}
