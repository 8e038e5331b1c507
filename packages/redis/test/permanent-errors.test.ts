import { createContext, groupedBodies, type RouteContext } from "@routekit/core";
import { connectRedis, type RedisStore } from "@routekit/redis";
import { afterEach, describe, expect, it } from "vitest";
import { redisAvailable, redisHost, redisPort, uniqueName } from "./support/redis-server.js";

let context: RouteContext | undefined;
let store: RedisStore | undefined;

afterEach(async () => {
  await context?.stop();
  await store?.close();
  context = undefined;
  store = undefined;
});

describe.skipIf(!redisAvailable)("a group that cannot be stored", () => {
  it("fails once under the recommended retry: the store's VALUE_CORRUPT is not worth retrying", async () => {
    store = await connectRedis({ host: redisHost, port: redisPort, keyPrefix: uniqueName("permanent") });
    const repository = store.aggregationRepository("orders");
    context = createContext({ logLevel: "off" });
    let redeliveries = 0;
    context.events.on("exchange-redelivered", () => {
      redeliveries++;
    });
    await context.addRoutes((r) =>
      r
        .from("direct:lines")
        .errorHandler({ maximumRedeliveries: 40, redeliveryDelay: 0 })
        .aggregate("${header.order}", { strategy: groupedBodies(), repository, completionSize: 2 }),
    );
    await context.start();
    const line: Record<string, unknown> = { sku: "a" };
    line.self = line;
    const exchange = await context.requestExchange("direct:lines", { body: line, headers: { order: "o1" } });
    expect(exchange.error?.message).toMatch(
      /the group 'o1' cannot be stored: body\[0\]\.self refers back to itself/,
    );
    expect(exchange.error).toMatchObject({
      name: "RedisStoreError",
      code: "VALUE_CORRUPT",
      retryable: false,
    });
    expect(redeliveries).toBe(0);
  });
});
