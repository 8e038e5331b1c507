import { connectRedis, type RedisStore } from "@routekit/redis";
import { LoopbackProxy, RequestGateProxy, waitFor } from "@routekit/test-support";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  deletePrefix,
  inspector,
  redisAvailable,
  redisHost,
  redisPort,
  uniqueName,
} from "./support/redis-server.js";

/** Long enough that a claim left behind would stall the key for the whole test. */
const claimTimeoutMs = 120_000;

describe.skipIf(!redisAvailable)("Redis idempotent repository: a claim that timed out", () => {
  const prefix = uniqueName("frozen");
  const closing: Array<{ close(): Promise<void> }> = [];
  let raw: Redis | undefined;

  afterEach(async () => {
    for (const resource of closing.splice(0).reverse()) await resource.close();
    if (raw !== undefined) {
      await deletePrefix(raw, prefix);
      raw.disconnect();
      raw = undefined;
    }
  });

  const store = async (port: number): Promise<RedisStore> => {
    const connected = await connectRedis({
      host: "127.0.0.1",
      port,
      keyPrefix: prefix,
      commandTimeoutMs: 300,
    });
    closing.push(connected);
    return connected;
  };

  /** Until a command on the repository's connection answers: everything sent before it has run. */
  const answering = (repository: { contains(key: string): Promise<boolean> }) =>
    waitFor("the connection to answer", async () => {
      try {
        await repository.contains("probe");
        return true;
      } catch {
        return false;
      }
    });

  it("does not hold the key once a frozen connection heals: another consumer claims it at once", async () => {
    const proxy = await LoopbackProxy.start({ host: redisHost, port: redisPort });
    closing.push(proxy);
    const frozenSide = (await store(proxy.port)).idempotentRepository("orders", { claimTimeoutMs });
    const other = (await store(redisPort)).idempotentRepository("orders", { claimTimeoutMs });
    raw = inspector();

    proxy.freeze();
    await expect(frozenSide.add("order-1")).rejects.toMatchObject({ code: "COMMAND_FAILED" });
    proxy.restore();
    await answering(frozenSide);

    // The claim reached Redis late, and was undone right behind it.
    expect(await raw.get(`${prefix}:idempotent:orders:order-1`)).toBeNull();
    expect(await other.add("order-1")).toBe(true);
    await other.confirm("order-1");
    expect(await frozenSide.add("order-1")).toBe(false);
  });

  it("takes over its own late claim when the connection died before the release went out", async () => {
    const proxy = await RequestGateProxy.start({ host: redisHost, port: redisPort });
    closing.push(proxy);
    const repository = (await store(proxy.port)).idempotentRepository("orders", { claimTimeoutMs });
    const other = (await store(redisPort)).idempotentRepository("orders", { claimTimeoutMs });
    raw = inspector();

    proxy.hold();
    const claim = repository.add("order-2");
    await waitFor("the claim to be sent", () => proxy.heldBytes() > 0);
    const claimBytes = proxy.heldBytes();
    await expect(claim).rejects.toMatchObject({ code: "COMMAND_FAILED" });
    // Only the claim gets through; the connection dies before anything after it.
    await proxy.deliverAndCut(claimBytes);
    await answering(repository);
    expect(await raw.get(`${prefix}:idempotent:orders:order-2`)).toMatch(/^claimed:/);

    // Another consumer cannot know the claim is stale, and waits; this one knows it as its own.
    await expect(other.add("order-2")).rejects.toMatchObject({ code: "KEY_IN_PROGRESS" });
    expect(await repository.add("order-2")).toBe(true);
    await repository.confirm("order-2");
    expect(await raw.get(`${prefix}:idempotent:orders:order-2`)).toBe("done");
  });

  it("still refuses a key another exchange of the same consumer holds", async () => {
    const repository = (await store(redisPort)).idempotentRepository("orders", { claimTimeoutMs });
    raw = inspector();
    const [first, second] = await Promise.allSettled([repository.add("order-3"), repository.add("order-3")]);
    expect(first).toEqual({ status: "fulfilled", value: true });
    expect(second).toMatchObject({ status: "rejected", reason: { code: "KEY_IN_PROGRESS" } });
    await repository.remove("order-3");
    expect(await repository.add("order-3")).toBe(true);
  });
});
