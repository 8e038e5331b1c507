import { createContext, type RouteContext } from "@routekit/core";
import { connectRedis, type RedisStore, RedisStoreError } from "@routekit/redis";
import { closedPort, LoopbackProxy, waitFor } from "@routekit/test-support";
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

const count = (kind: string): number =>
  process.getActiveResourcesInfo().filter((name) => name === kind).length;
const sockets = (): number => count("TCPSocketWrap");
const timers = (): number => count("Timeout");

describe("connectRedis: a server that is not there", () => {
  it("fails with CONNECTION_FAILED naming host and port, and leaves no socket or retry behind", async () => {
    const port = await closedPort();
    const before = sockets();
    const timersBefore = timers();
    const attempt = connectRedis({ host: "127.0.0.1", port, connectTimeoutMs: 2000 });
    await expect(attempt).rejects.toBeInstanceOf(RedisStoreError);
    await expect(attempt).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    await expect(attempt).rejects.toThrow(
      new RegExp(`could not connect to Redis at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sockets()).toBeLessThanOrEqual(before);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it("refuses unknown and malformed options before connecting", async () => {
    await expect(connectRedis({ prot: 1 } as never)).rejects.toThrow(
      /unknown option 'prot' \(did you mean 'port'\?\) \(expected one of host, port/,
    );
    await expect(connectRedis({ port: -1 })).rejects.toThrow(
      /option 'port' must be a whole number from 1 to 65535 \(found number -1\)/,
    );
    await expect(connectRedis({ keyPrefix: "a:b" })).rejects.toMatchObject({ code: "OPTIONS_INVALID" });
  });
});

describe.skipIf(!redisAvailable)("Redis lost while running", () => {
  let proxy: LoopbackProxy | undefined;
  let store: RedisStore | undefined;
  let context: RouteContext | undefined;
  let raw: Redis | undefined;
  const prefix = uniqueName("lost");

  afterEach(async () => {
    await context?.stop();
    await store?.close();
    await proxy?.close();
    if (raw !== undefined) {
      await deletePrefix(raw, prefix);
      raw.disconnect();
    }
  });

  it("fails the exchange while Redis is gone, confirms nothing it did not process, and processes the retry once Redis is back", async () => {
    proxy = await LoopbackProxy.start({ host: redisHost, port: redisPort });
    store = await connectRedis({
      host: "127.0.0.1",
      port: proxy.port,
      keyPrefix: prefix,
      commandTimeoutMs: 2000,
    });
    const repository = store.idempotentRepository("lost");
    raw = inspector();
    const processed: string[] = [];
    let cutDuringProcessing = false;
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .idempotentConsumer("${body}", { repository })
        .process((exchange) => {
          if (cutDuringProcessing) {
            cutDuringProcessing = false;
            proxy?.cut();
            throw new Error("processing failed while Redis was away");
          }
          processed.push(exchange.body as string);
        }),
    );
    await context.start();
    await context.request("direct:in", "before");

    proxy.cut();
    const whileGone = context.request("direct:in", "while-gone");
    await expect(whileGone).rejects.toMatchObject({ cause: { code: "COMMAND_FAILED" } });
    await expect(whileGone).rejects.toThrow(
      /Redis at 127\.0\.0\.1:\d+, idempotent repository 'lost': claiming key .* failed: the connection is lost or not answering/,
    );
    expect(await raw.exists(`${prefix}:idempotent:lost:while-gone`)).toBe(0);

    proxy.restore();
    await waitFor("the connection back", async () => {
      try {
        return (await repository.contains("before")) === true;
      } catch {
        return false;
      }
    });
    cutDuringProcessing = true;
    await expect(context.request("direct:in", "mid-run")).rejects.toThrow(
      /processing failed while Redis was away/,
    );
    // The release failed too (Redis was gone): the claim stays until it expires, and is never "done".
    expect(await raw.get(`${prefix}:idempotent:lost:mid-run`)).toMatch(/^claimed:/);

    proxy.restore();
    await waitFor("the connection back", async () => {
      try {
        return (await repository.contains("before")) === true;
      } catch {
        return false;
      }
    });
    await context.request("direct:in", "while-gone");
    expect(processed).toEqual(["before", "while-gone"]);
    expect(await raw.get(`${prefix}:idempotent:lost:while-gone`)).toBe("done");
  });
});
