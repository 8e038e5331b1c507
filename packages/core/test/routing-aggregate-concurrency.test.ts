import {
  AGGREGATE_CORRELATION_KEY,
  type AggregationRepository,
  createContext,
  createMemoryAggregationRepository,
  groupedBodies,
  type RouteContext,
} from "@routekit/core";
import { collectingLogger } from "@routekit/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("aggregate: concurrency and repositories", () => {
  it("loses and double-counts nothing with many producers over seda with 4 consumers", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from<number>("seda:in?concurrentConsumers=4")
        .process(async () => {
          await tick();
        })
        .aggregate("${header.key}", { strategy: groupedBodies<number>(), completionSize: 10 })
        .to("mock:groups"),
    );
    await context.start();
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => context.send("seda:in", index, { key: `k${index % 5}` })),
    );
    const mock = context.endpoint("mock:groups").expectedMessageCount(20);
    await mock.assertIsSatisfied(10_000);
    const groups = mock.received.map((exchange) => exchange.body as number[]);
    expect(groups.every((group) => group.length === 10)).toBe(true);
    for (const [index, group] of groups.entries()) {
      const key = mock.received[index]?.properties[AGGREGATE_CORRELATION_KEY];
      expect(group.every((value) => `k${value % 5}` === key)).toBe(true);
    }
    expect(groups.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, index) => index));
  });

  it("serialises work per key over an asynchronous repository", async () => {
    const memory = createMemoryAggregationRepository();
    const calls: string[] = [];
    const slow: AggregationRepository = {
      get: async (key) => {
        calls.push(`get ${key}`);
        await tick();
        return memory.get(key);
      },
      put: async (key, exchange) => {
        await tick();
        await memory.put(key, exchange);
      },
      remove: async (key) => {
        await tick();
        await memory.remove(key);
      },
      keys: async () => memory.keys(),
    };
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from<number>("seda:slow?concurrentConsumers=8")
        .aggregate("${header.key}", {
          strategy: groupedBodies<number>(),
          completionSize: 5,
          repository: slow,
        })
        .to("mock:slow"),
    );
    await context.start();
    await Promise.all(
      Array.from({ length: 40 }, (_, index) => context.send("seda:slow", index, { key: `k${index % 2}` })),
    );
    const mock = context.endpoint("mock:slow").expectedMessageCount(8);
    await mock.assertIsSatisfied(10_000);
    expect(mock.received.map((exchange) => (exchange.body as number[]).length)).toEqual(Array(8).fill(5));
    expect(mock.received.flatMap((exchange) => exchange.body as number[]).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index),
    );
    expect(calls.length).toBe(40);
  });
});

describe("aggregate: failures", () => {
  it("a missing correlation value fails the exchange naming the route, or drops it when asked", async () => {
    const logger = collectingLogger();
    context = createContext({ logger, logLevel: "trace" });
    await context.addRoutes((r) => {
      r.from("direct:strict")
        .routeId("strict")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionSize: 2 });
      r.from("direct:lenient")
        .routeId("lenient")
        .aggregate("${header.key}", {
          strategy: groupedBodies(),
          completionSize: 1,
          ignoreInvalidCorrelationKeys: true,
        })
        .to("mock:lenient");
    });
    await context.start();
    await expect(context.request("direct:strict", "x")).rejects.toThrow(
      /Route 'strict' step #1 aggregate: the correlation expression yielded undefined for exchange \S+; expected a non-empty string or a number \(set ignoreInvalidCorrelationKeys to drop such messages\)/,
    );
    await expect(context.request("direct:strict", "x", { key: "" })).rejects.toThrow('yielded string ""');
    expect(await context.request("direct:lenient", "x")).toBe("x");
    await context.send("direct:lenient", "y", { key: 7 });
    expect(context.endpoint("mock:lenient").receivedBodies).toEqual([["y"]]);
    expect(
      logger.lines.some(
        (line) => line.startsWith("debug Route 'lenient' step #1 aggregate") && line.includes("dropped"),
      ),
    ).toBe(true);
  });

  it("a strategy that returns no exchange fails the incoming exchange", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:bad")
        .routeId("bad")
        .aggregate("${header.key}", { strategy: () => null as never, completionSize: 2 }),
    );
    await context.start();
    await expect(context.request("direct:bad", 1, { key: "a" })).rejects.toThrow(
      "Route 'bad' step #1 aggregate: the aggregation strategy must return an exchange (previous or next), found null",
    );
  });

  it("a failure after the aggregator is logged and never reaches the incoming exchanges", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r
        .from("direct:after")
        .routeId("after")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionSize: 2 })
        .process(() => {
          throw new Error("downstream broke");
        }),
    );
    await context.start();
    expect(await context.request("direct:after", 1, { key: "a" })).toBe(1);
    expect(await context.request("direct:after", 2, { key: "a" })).toBe(2);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(
      /^error Route 'after' step #1 aggregate: the aggregated exchange \S+ \(correlation key 'a', completed by size\) failed: Error: downstream broke$/,
    );
  });
});
