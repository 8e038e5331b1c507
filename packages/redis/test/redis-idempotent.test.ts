import { createContext, type RouteContext } from "@routekit/core";
import { connectRedis, type RedisStore, RedisStoreError } from "@routekit/redis";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

  it("lets exactly one of two instances claim a key; a claimed key fails the other, a confirmed one is a duplicate", async () => {
    const first = (await store()).idempotentRepository("orders");
    const second = (await store()).idempotentRepository("orders");
    const claims = await Promise.allSettled([first.add("o-1"), second.add("o-1")]);
    const won = claims.filter((claim) => claim.status === "fulfilled" && claim.value === true);
    const refused = claims.filter((claim) => claim.status === "rejected");
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as RedisStoreError;
    expect(error).toBeInstanceOf(RedisStoreError);
    expect(error.code).toBe("KEY_IN_PROGRESS");
    expect(error.message).toMatch(/key 'o-1' is claimed by a consumer that has not finished/);
    const winner = claims[0]?.status === "fulfilled" ? first : second;
    await winner.confirm("o-1");
    expect(await first.add("o-1")).toBe(false);
    expect(await second.add("o-1")).toBe(false);
    expect(await second.contains("o-1")).toBe(true);
    expect(await raw.get(`${prefix}:idempotent:orders:o-1`)).toBe("done");
  });

  it("processes each key once in a route, releases a key whose processing failed and lets its retry through", async () => {
    const repository = (await store()).idempotentRepository("route");
    const processed: string[] = [];
    let failNext = true;
    const context = createContext();
    contexts.push(context);
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body.id}", { repository })
        .process((exchange) => {
          const id = (exchange.body as { id: string }).id;
          if (id === "b" && failNext) {
            failNext = false;
            throw new Error("downstream refused b");
          }
          processed.push(id);
        }),
    );
    await context.start();
    await context.request("direct:in", { id: "a" });
    await context.request("direct:in", { id: "a" });
    await expect(context.request("direct:in", { id: "b" })).rejects.toThrow(/downstream refused b/);
    expect(await repository.contains("b")).toBe(false);
    await context.request("direct:in", { id: "b" });
    await context.request("direct:in", { id: "b" });
    expect(processed).toEqual(["a", "b"]);
  });

  it("frees a claim whose consumer died once claimTimeoutMs passed; the dead consumer's late confirm fails with CLAIM_LOST", async () => {
    const dying = (await store()).idempotentRepository("crash", { claimTimeoutMs: 300 });
    const survivor = (await store()).idempotentRepository("crash", { claimTimeoutMs: 300 });
    expect(await dying.add("k")).toBe(true);
    await expect(survivor.add("k")).rejects.toMatchObject({ code: "KEY_IN_PROGRESS" });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await survivor.add("k")).toBe(true);
    const late = dying.confirm("k");
    await expect(late).rejects.toMatchObject({ code: "CLAIM_LOST" });
    await expect(late).rejects.toThrow(/raise claimTimeoutMs/);
    await survivor.confirm("k");
    expect(await dying.add("k")).toBe(false);
  });

  it("forgets processed keys after expireAfterMs", async () => {
    const repository = (await store()).idempotentRepository("expiring", { expireAfterMs: 300 });
    expect(await repository.add("k")).toBe(true);
    await repository.confirm("k");
    expect(await repository.add("k")).toBe(false);
    expect(await raw.pttl(`${prefix}:idempotent:expiring:k`)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await repository.add("k")).toBe(true);
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

  it("refuses a repository name that cannot be part of a key", async () => {
    const connected = await store();
    expect(() => connected.idempotentRepository("a b")).toThrow(
      /idempotentRepository\(\) name must be 1-100 letters, digits, '.', '_' or '-', found "a b"/,
    );
    expect(() => connected.idempotentRepository("ok", { claimTimeoutMs: 0 })).toThrow(
      /option 'claimTimeoutMs' must be an integer >= 1, found 0/,
    );
  });
});
