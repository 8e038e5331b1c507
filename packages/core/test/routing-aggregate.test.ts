import {
  AGGREGATE_COMPLETED_BY,
  AGGREGATE_CORRELATION_KEY,
  AGGREGATE_SIZE,
  type AggregationRepository,
  createContext,
  createMemoryAggregationRepository,
  type Exchange,
  groupedBodies,
  type Logger,
  type RouteContext,
} from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const summary = (exchange: Exchange) => ({
  body: exchange.body,
  completedBy: exchange.properties[AGGREGATE_COMPLETED_BY],
  size: exchange.properties[AGGREGATE_SIZE],
  key: exchange.properties[AGGREGATE_CORRELATION_KEY],
});

function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return {
    lines,
    trace: write("trace"),
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
  };
}

describe("aggregate: completion", () => {
  it("completes a group by size; incoming exchanges stop at the aggregator and get their own body back", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:agg")
        .routeId("agg")
        .aggregate("${header.order}", { strategy: groupedBodies(), completionSize: 3 })
        .setHeader("seen", () => true)
        .to("mock:groups"),
    );
    await context.start();
    const replies = [];
    for (const [body, order] of [
      ["a1", "A"],
      ["b1", "B"],
      ["a2", "A"],
      ["a3", "A"],
      ["b2", "B"],
    ] as const) {
      replies.push(await context.requestExchange("direct:agg", { body, headers: { order } }));
    }
    expect(replies.map((exchange) => exchange.body)).toEqual(["a1", "b1", "a2", "a3", "b2"]);
    expect(
      replies.every((exchange) => exchange.error === undefined && exchange.headers.seen === undefined),
    ).toBe(true);
    const groups = context.endpoint("mock:groups").received;
    expect(groups.map(summary)).toEqual([
      { body: ["a1", "a2", "a3"], completedBy: "size", size: 3, key: "A" },
    ]);
    expect(groups[0]?.headers).toEqual({ order: "A", seen: true });
    expect(replies.map((exchange) => exchange.id)).not.toContain(groups[0]?.id);
  });

  it("completes a group after completionTimeout without a new message (restarted by each)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:t")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionTimeout: 1000 })
        .to("mock:t"),
    );
    await context.start();
    const mock = context.endpoint("mock:t");
    await context.send("direct:t", 1, { key: "a" });
    await vi.advanceTimersByTimeAsync(600);
    await context.send("direct:t", 2, { key: "a" });
    await context.send("direct:t", 3, { key: "b" });
    await vi.advanceTimersByTimeAsync(999);
    expect(mock.receivedCount).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(mock.received.map(summary)).toEqual([
      { body: [1, 2], completedBy: "timeout", size: 2, key: "a" },
      { body: [3], completedBy: "timeout", size: 1, key: "b" },
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(mock.receivedCount).toBe(2);
  });

  it("completes every open group each completionInterval", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:i")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionInterval: 1000 })
        .to("mock:i"),
    );
    await context.start();
    const mock = context.endpoint("mock:i");
    await context.send("direct:i", "a1", { key: "a" });
    await vi.advanceTimersByTimeAsync(400);
    await context.send("direct:i", "b1", { key: "b" });
    await context.send("direct:i", "a2", { key: "a" });
    await vi.advanceTimersByTimeAsync(600);
    expect(mock.received.map(summary)).toEqual([
      { body: ["a1", "a2"], completedBy: "interval", size: 2, key: "a" },
      { body: ["b1"], completedBy: "interval", size: 1, key: "b" },
    ]);
    await context.send("direct:i", "a3", { key: "a" });
    await vi.advanceTimersByTimeAsync(1000);
    expect(mock.received.map((exchange) => exchange.body)).toEqual([["a1", "a2"], ["b1"], ["a3"]]);
  });

  it("completes by a predicate on the aggregate, or on the incoming exchange when eager", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from<number>("direct:p")
        .aggregate("${header.key}", {
          strategy: groupedBodies<number>(),
          completionPredicate: (exchange) => exchange.body.reduce((sum, value) => sum + value, 0) >= 10,
        })
        .to("mock:p");
      r.from("direct:eager")
        .aggregate("${header.key}", {
          strategy: groupedBodies(),
          completionPredicate: "${header.last} == true",
          eagerCheckCompletion: true,
        })
        .to("mock:eager");
    });
    await context.start();
    for (const value of [4, 5, 1, 20]) await context.send("direct:p", value, { key: "k" });
    expect(context.endpoint("mock:p").received.map(summary)).toEqual([
      { body: [4, 5, 1], completedBy: "predicate", size: 3, key: "k" },
      { body: [20], completedBy: "predicate", size: 1, key: "k" },
    ]);
    await context.send("direct:eager", "x", { key: "k" });
    await context.send("direct:eager", "y", { key: "k", last: true });
    expect(context.endpoint("mock:eager").received.map(summary)).toEqual([
      { body: ["x", "y"], completedBy: "predicate", size: 2, key: "k" },
    ]);
  });

  it("force-completes open groups when the context stops", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:s")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionSize: 100 })
        .to("mock:s"),
    );
    await context.start();
    await context.send("direct:s", 1, { key: "a" });
    await context.send("direct:s", 2, { key: "b" });
    await context.send("direct:s", 3, { key: "a" });
    const mock = context.endpoint("mock:s");
    expect(mock.receivedCount).toBe(0);
    await context.stop();
    expect(mock.received.map(summary)).toEqual([
      { body: [1, 3], completedBy: "stop", size: 2, key: "a" },
      { body: [2], completedBy: "stop", size: 1, key: "b" },
    ]);
  });

  it("its timers do not keep the process alive", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:timeout")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionTimeout: 60_000 })
        .to("mock:x");
      r.from("direct:interval")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionInterval: 60_000 })
        .to("mock:x");
    });
    await context.start();
    const timers = () => process.getActiveResourcesInfo().filter((type) => type === "Timeout").length;
    const before = timers();
    await context.send("direct:timeout", 1, { key: "a" });
    await context.send("direct:interval", 1, { key: "a" });
    expect(timers()).toBe(before);
  });
});

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
