import { randomUUID } from "node:crypto";
import { createContext, encodeStoredExchange, groupedBodies, type RouteContext } from "@routekit/core";
import { connectRedis, type RedisAggregationRepository, type RedisStore } from "@routekit/redis";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { waitFor } from "./support/loopback-proxy.js";
import {
  deletePrefix,
  inspector,
  redisAvailable,
  redisHost,
  redisPort,
  uniqueName,
} from "./support/redis-server.js";

interface Part {
  readonly order: string;
  readonly line: number;
}

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

  /** An instance: its own context and connection, aggregating order lines into `completed`. */
  const instance = async (
    completed: unknown[][],
    options: Record<string, unknown> = {},
    rest: (body: unknown[]) => void = () => {},
  ): Promise<RouteContext> => {
    const context = createContext();
    contexts.push(context);
    const shared = await repository();
    await context.addRoutes((r) =>
      r
        .from<Part>("seda:lines?concurrentConsumers=4")
        .aggregate<Part[]>("${body.order}", {
          strategy: groupedBodies<Part>(),
          repository: shared,
          partId: (exchange) => `${(exchange.body as Part).order}/${(exchange.body as Part).line}`,
          ...options,
        })
        .process((exchange) => {
          rest(exchange.body as unknown[]);
          completed.push(exchange.body as unknown[]);
        }),
    );
    await context.start();
    return context;
  };

  it("completes every group exactly once with all its parts when two instances receive the parts", async () => {
    const completed: unknown[][] = [];
    const first = await instance(completed, { completionSize: 5 });
    const second = await instance(completed, { completionSize: 5 });
    const sends: Promise<void>[] = [];
    for (let order = 0; order < 20; order++) {
      for (let line = 0; line < 5; line++) {
        const target = (order + line) % 2 === 0 ? first : second;
        sends.push(target.send("seda:lines", { order: `o${order}`, line }));
      }
    }
    await Promise.all(sends);
    await waitFor("20 completed orders", () => completed.length >= 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completed).toHaveLength(20);
    for (const group of completed) {
      expect((group as Part[]).map((part) => part.line).sort()).toEqual([0, 1, 2, 3, 4]);
    }
    expect(new Set(completed.map((group) => (group as Part[])[0]?.order)).size).toBe(20);
    expect(await raw.zcard(`${prefix}:aggregation:{orders}:completed`)).toBe(0);
  });

  it("adds a part delivered again only once, also after its group completed", async () => {
    const completed: unknown[][] = [];
    const context = await instance(completed, { completionSize: 2 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await context.send("seda:lines", { order: "a", line: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await context.send("seda:lines", { order: "a", line: 2 });
    await waitFor("order a", () => completed.length === 1);
    await context.send("seda:lines", { order: "a", line: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(completed).toEqual([
      [
        { order: "a", line: 1 },
        { order: "a", line: 2 },
      ],
    ]);
    expect(await raw.zcard(`${prefix}:aggregation:{orders}:open`)).toBe(0);
  });

  it("completes a group by timeout on another instance after the one that received its parts stopped", async () => {
    const completed: unknown[][] = [];
    const options = { completionTimeout: 400, completionTimeoutCheckInterval: 100 };
    const receiver = await instance(completed, options);
    await receiver.send("seda:lines", { order: "t", line: 1 });
    await receiver.send("seda:lines", { order: "t", line: 2 });
    await waitFor("two parts stored", async () => {
      const group = await (await repository()).read("t");
      return group?.partIds.length === 2;
    });
    await receiver.stop();
    expect(completed).toEqual([]);
    await instance(completed, options);
    await waitFor("the timed-out group", () => completed.length === 1, 10_000);
    expect(completed[0]).toHaveLength(2);
  });

  it("recovers a group completed by an instance that died before processing it", async () => {
    const shared = await repository();
    const id = randomUUID();
    const stored = { body: [{ order: "c", line: 1 }], headers: { source: "crashed" }, properties: {} };
    expect(
      await shared.complete("c", id, {
        version: undefined,
        exchange: stored,
        partIds: ["c/1"],
        timeoutAt: undefined,
      }),
    ).toBe(true);
    const completed: unknown[][] = [];
    await instance(completed, { completionSize: 5, recovery: { interval: 200 } });
    await waitFor("the recovered group", () => completed.length === 1, 10_000);
    expect(completed[0]).toEqual([{ order: "c", line: 1 }]);
    await waitFor(
      "the completion confirmed",
      async () => (await raw.zcard(`${prefix}:aggregation:{orders}:completed`)) === 0,
    );
  });

  it("retries a group whose processing fails and moves it to the dead letter after maximumRedeliveries", async () => {
    const completed: unknown[][] = [];
    let attempts = 0;
    const context = await instance(
      completed,
      { completionSize: 1, recovery: { interval: 150, maximumRedeliveries: 2, deadLetterUri: "mock:dead" } },
      () => {
        attempts++;
        throw new Error("the warehouse refuses every order");
      },
    );
    const dead = context.endpoint("mock:dead");
    dead.expectedMessageCount(1);
    await context.send("seda:lines", { order: "d", line: 1 });
    await dead.assertIsSatisfied(10_000);
    expect(attempts).toBe(3);
    expect(dead.received[0]?.body).toEqual([{ order: "d", line: 1 }]);
    await waitFor(
      "nothing left to recover",
      async () => (await raw.zcard(`${prefix}:aggregation:{orders}:completed`)) === 0,
    );
  });

  it("fails the exchange with VALUE_CORRUPT naming the key when a group holds a foreign value, and keeps the value", async () => {
    const completed: unknown[][] = [];
    const context = createContext();
    contexts.push(context);
    const shared = await repository();
    await context.addRoutes((r) =>
      r
        .from("direct:lines")
        .aggregate("${body.order}", { strategy: groupedBodies(), repository: shared, completionSize: 2 })
        .process((exchange) => {
          completed.push(exchange.body as unknown[]);
        }),
    );
    await context.start();
    const groupKey = `${prefix}:aggregation:{orders}:group:`;
    await raw.hset(`${groupKey}bad`, "version", "1", "data", "{not json", "parts", "[]");
    await raw.set(`${groupKey}text`, "a plain string");
    await raw.hset(
      `${groupKey}old`,
      "version",
      "1",
      "data",
      JSON.stringify({ format: "other/2" }),
      "parts",
      "[]",
    );
    await expect(context.request("direct:lines", { order: "bad" })).rejects.toThrow(
      `Redis key '${groupKey}bad' does not hold a group written by routekit: expected JSON written by routekit, found text that is not JSON: "{not json"`,
    );
    await expect(context.request("direct:lines", { order: "text" })).rejects.toMatchObject({
      cause: { code: "VALUE_CORRUPT" },
    });
    await expect(context.request("direct:lines", { order: "old" })).rejects.toThrow(
      /expected an exchange in the format 'routekit-exchange\/1'/,
    );
    expect(await raw.get(`${groupKey}text`)).toBe("a plain string");
    await context.request("direct:lines", { order: "fine" });
    await context.request("direct:lines", { order: "fine" });
    expect(completed).toEqual([[{ order: "fine" }, { order: "fine" }]]);
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
    const { LoopbackProxy } = await import("./support/loopback-proxy.js");
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
