import type { CheckpointStore } from "@routekit/core";
import { Redis } from "ioredis";
import {
  createRedisAggregationRepository,
  type RedisAggregationRepository,
  type RedisAggregationRepositoryOptions,
} from "./redis-aggregation-repository.js";
import { createRedisCheckpointStore } from "./redis-checkpoint-store.js";
import {
  createRedisIdempotentRepository,
  type RedisIdempotentRepository,
  type RedisIdempotentRepositoryOptions,
} from "./redis-idempotent-repository.js";
import { type RedisStoreOptions, resolveRedisOptions } from "./redis-options.js";
import { createRedisQuotaStore, type RedisQuotaStore } from "./redis-quota-store.js";
import { describeError, RedisStoreError } from "./redis-store-error.js";

/** A connection to Redis that makes repositories; close it after the context stopped. */
export interface RedisStore {
  /** `host:port` of the server. */
  readonly address: string;
  /** An idempotent repository; `name` separates its keys from other repositories'. */
  idempotentRepository(name: string, options?: RedisIdempotentRepositoryOptions): RedisIdempotentRepository;
  /** An aggregation repository; `name` separates its groups from other repositories'. */
  aggregationRepository(
    name: string,
    options?: RedisAggregationRepositoryOptions,
  ): RedisAggregationRepository;
  /** A checkpoint store (durable llm runs); `name` separates its records from other stores'. */
  checkpointStore(name: string): CheckpointStore;
  /**
   * Provider quota buckets shared by every instance, for `providerQuota({ store })` of
   * @routekit/llm; `name` separates its keys from other quota stores'.
   */
  quotaStore(name: string): RedisQuotaStore;
  /** Closes the connection (commands sent after it fail). */
  close(): Promise<void>;
}

/**
 * Connects to Redis and checks that it answers; fails with CONNECTION_FAILED naming host and
 * port when it does not. While running, a lost connection is re-established in the background
 * and commands meanwhile fail at once (COMMAND_FAILED), so the exchange fails and its message is
 * delivered again instead of waiting in a queue.
 */
export async function connectRedis(options: RedisStoreOptions = {}): Promise<RedisStore> {
  const resolved = resolveRedisOptions(options);
  const address = `${resolved.host}:${resolved.port}`;
  const where = `Redis at ${address}`;
  const client = new Redis({
    host: resolved.host,
    port: resolved.port,
    db: resolved.db,
    username: resolved.username,
    password: resolved.password,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: resolved.connectTimeoutMs,
    commandTimeout: resolved.commandTimeoutMs,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let lastError: unknown;
  client.on("error", (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new RedisStoreError(
      "CONNECTION_FAILED",
      `could not connect to Redis at ${address}: ${describeError(lastError ?? error)}`,
      { cause: error },
    );
  }
  return {
    address,
    idempotentRepository: (name, repositoryOptions) =>
      createRedisIdempotentRepository(client, where, resolved.keyPrefix, name, repositoryOptions),
    aggregationRepository: (name, repositoryOptions) =>
      createRedisAggregationRepository(client, where, resolved.keyPrefix, name, repositoryOptions),
    checkpointStore: (name) => createRedisCheckpointStore(client, where, resolved.keyPrefix, name),
    quotaStore: (name) => createRedisQuotaStore(client, where, resolved.keyPrefix, name),
    async close() {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
