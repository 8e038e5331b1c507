import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { encodeStoredExchange } from "@routekit/core/internal";
import { connectRedis, type RedisAggregationRepository, type RedisStore } from "@routekit/redis";
import { LoopbackProxy, waitFor } from "@routekit/test-support";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { aggregationRepositoryContract } from "../../core/test/support/repository-contracts.js";
import {
  deletePrefix,
  inspector,
  redisAvailable,
  redisHost,
  redisPort,
  uniqueName,
} from "./support/redis-server.js";

describe.skipIf(!redisAvailable)("Redis aggregation repository", () => {
  let prefix: string;
  let stores: RedisStore[];
  let contexts: RouteContext[];
  let raw: Redis;

  beforeEach(() => {
    prefix = uniqueName("agg");
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

  const repository = async (options?: {
    partIdRetentionMs?: number;
  }): Promise<RedisAggregationRepository> => {
    const store = await connectRedis({ host: redisHost, port: redisPort, keyPrefix: prefix });
    stores.push(store);
    return store.aggregationRepository("orders", options);
  };

  aggregationRepositoryContract({
    repository: () => repository(),
    completedCount: () => raw.zcard(`${prefix}:aggregation:{orders}:completed`),
    async writeForeignGroups() {
      const groupKey = `${prefix}:aggregation:{orders}:group:`;
      await raw.hset(`${groupKey}bad`, "version", "1", "data", "{not json", "parts", "[]");
      await raw.set(`${groupKey}text`, "a plain string");
      const other = JSON.stringify({ format: "other/2" });
      await raw.hset(`${groupKey}old`, "version", "1", "data", other, "parts", "[]");
      return [
        {
          key: "bad",
          failure: `Redis key '${groupKey}bad' does not hold a group written by routekit: expected JSON written by routekit, found text that is not JSON: "{not json"`,
        },
        { key: "text", failure: /reading group '.*:group:text' found a value of another type under the key/ },
        { key: "old", failure: /expected an exchange in the format 'routekit-exchange\/1'/ },
      ];
    },
    async expectForeignGroupsKept() {
      expect(await raw.get(`${prefix}:aggregation:{orders}:group:text`)).toBe("a plain string");
      expect(await raw.hget(`${prefix}:aggregation:{orders}:group:bad`, "data")).toBe("{not json");
    },
  });

  it("starts its background passes with the context and ends them when it stops", async () => {
    const real = await repository();
    const passes = { recover: 0, expired: 0 };
    // The real repository, counting the background passes' calls.
    const shared: RedisAggregationRepository = {
      ...real,
      recover: (olderThanMs, limit) => {
        passes.recover++;
        return real.recover(olderThanMs, limit);
      },
      expired: (now, limit) => {
        passes.expired++;
        return real.expired(now, limit);
      },
    };
    const context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:lines").aggregate("${body.order}", {
        strategy: groupedBodies(),
        repository: shared,
        completionTimeout: 60_000,
        completionTimeoutCheckInterval: 50,
        recovery: { interval: 50 },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passes).toEqual({ recover: 0, expired: 0 });
    await context.start();
    await waitFor("both passes", () => passes.recover > 1 && passes.expired > 1);
    await context.request("direct:lines", { order: "open" });
    await context.stop();
    const after = { ...passes };
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passes).toEqual(after);
    // Stopping leaves the open group in the store for the other instances.
    expect(await real.keys()).toEqual(["open"]);
  });

  it("fails the exchange while Redis is gone and stores nothing for it; the part is added once Redis is back", async () => {
    const proxy = await LoopbackProxy.start({ host: redisHost, port: redisPort });
    try {
      const store = await connectRedis({ host: "127.0.0.1", port: proxy.port, keyPrefix: prefix });
      stores.push(store);
      const shared = store.aggregationRepository("orders");
      const context = createContext();
      contexts.push(context);
      const completed: unknown[] = [];
      await context.addRoutes((r) =>
        r
          .from("direct:lines")
          .aggregate("${body.order}", { strategy: groupedBodies(), repository: shared, completionSize: 2 })
          .process((exchange) => {
            completed.push(exchange.body);
          }),
      );
      await context.start();
      await context.request("direct:lines", { order: "g", line: 1 });
      proxy.cut();
      await expect(context.request("direct:lines", { order: "g", line: 2 })).rejects.toMatchObject({
        cause: { code: "COMMAND_FAILED" },
      });
      expect(
        JSON.parse((await raw.hget(`${prefix}:aggregation:{orders}:group:g`, "parts")) ?? "null"),
      ).toEqual([]);
      proxy.restore();
      await waitFor("Redis back", async () => {
        try {
          await shared.keys();
          return true;
        } catch {
          return false;
        }
      });
      await context.request("direct:lines", { order: "g", line: 2 });
      expect(completed).toEqual([
        [
          { order: "g", line: 1 },
          { order: "g", line: 2 },
        ],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("keeps buffers, dates and bigints of a group across instances", async () => {
    const shared = await repository();
    const exchange = {
      body: {
        bytes: Buffer.from([0, 1, 255]),
        at: new Date("2026-01-02T03:04:05.000Z"),
        big: 12345678901234567890n,
      },
      headers: { $rk: "not a tag" },
      properties: {},
    };
    expect(await shared.write("x", { version: undefined, exchange, partIds: [], timeoutAt: undefined })).toBe(
      true,
    );
    const other = await repository();
    const group = await other.read("x");
    expect(group?.exchange).toEqual(exchange);
    expect(group?.version).toBe(1);
    expect(await other.write("x", { version: undefined, exchange, partIds: [], timeoutAt: undefined })).toBe(
      false,
    );
    expect(await raw.hget(`${prefix}:aggregation:{orders}:group:x`, "data")).toBe(
      encodeStoredExchange(exchange),
    );
  });
});
