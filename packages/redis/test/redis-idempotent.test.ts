import { createContext, type RouteContext } from "@routekit/core";
import { connectRedis, type RedisStore, RedisStoreError } from "@routekit/redis";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { idempotentRepositoryContract } from "../../core/test/support/repository-contracts.js";
import {
  deletePrefix,
  inspector,
  redisAvailable,
  redisHost,
  redisPort,
  uniqueName,
} from "./support/redis-server.js";

describe.skipIf(!redisAvailable)("Redis idempotent repository", () => {
  let prefix: string;
  let stores: RedisStore[];
  let raw: Redis;
  let contexts: RouteContext[];

  beforeEach(() => {
    prefix = uniqueName("idem");
    stores = [];
    contexts = [];
    raw = inspector();
  });
  afterEach(async () => {
    for (const context of contexts) await context.stop();
    for (const store of stores) await store.close();
    await deletePrefix(raw, prefix);
    raw.disconnect();
  });

  const store = async (): Promise<RedisStore> => {
    const connected = await connectRedis({ host: redisHost, port: redisPort, keyPrefix: prefix });
    stores.push(connected);
    return connected;
  };

  idempotentRepositoryContract({
    errorClass: RedisStoreError,
    repository: async (name, options) => (await store()).idempotentRepository(name, options),
    async expectProcessed(name, key) {
      expect(await raw.get(`${prefix}:idempotent:${name}:${key}`)).toBe("done");
    },
    async expiresIn(name, key) {
      const left = await raw.pttl(`${prefix}:idempotent:${name}:${key}`);
      expect(left).not.toBe(-2);
      return left === -1 ? undefined : left;
    },
  });

  it("keeps a processed key under a Redis key that expires after expireAfterMs", async () => {
    const repository = (await store()).idempotentRepository("expiring", { expireAfterMs: 60_000 });
    expect(await repository.add("k")).toBe(true);
    expect(await raw.pttl(`${prefix}:idempotent:expiring:k`)).toBeGreaterThan(0);
    await repository.confirm("k");
    const left = await raw.pttl(`${prefix}:idempotent:expiring:k`);
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
  });

  it("fails the exchange with VALUE_CORRUPT naming the Redis key when a foreign value sits under a key", async () => {
    const repository = (await store()).idempotentRepository("foreign");
    await raw.set(`${prefix}:idempotent:foreign:text`, "someone else's value");
    await raw.hset(`${prefix}:idempotent:foreign:hash`, "field", "value");
    const context = createContext();
    contexts.push(context);
    const processed: unknown[] = [];
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body}", { repository })
        .process((exchange) => {
          processed.push(exchange.body);
        }),
    );
    await context.start();
    const text = context.request("direct:in", "text");
    await expect(text).rejects.toMatchObject({ cause: { code: "VALUE_CORRUPT" } });
    await expect(text).rejects.toThrow(
      `Redis key '${prefix}:idempotent:foreign:text' holds "someone else's value", expected 'done' or a claim written by routekit`,
    );
    await expect(context.request("direct:in", "hash")).rejects.toThrow(
      /found a value of another type under the key/,
    );
    await context.request("direct:in", "fine");
    expect(processed).toEqual(["fine"]);
    expect(await raw.get(`${prefix}:idempotent:foreign:text`)).toBe("someone else's value");
  });
});
