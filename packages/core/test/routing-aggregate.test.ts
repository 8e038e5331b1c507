import {
  AGGREGATE_COMPLETED_BY,
  AGGREGATE_CORRELATION_KEY,
  AGGREGATE_SIZE,
  createContext,
  type Exchange,
  groupedBodies,
  type RouteContext,
  useLatest,
} from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop();
});

const summary = (exchange: Exchange) => ({
  body: exchange.body,
  completedBy: exchange.properties[AGGREGATE_COMPLETED_BY],
  size: exchange.properties[AGGREGATE_SIZE],
  key: exchange.properties[AGGREGATE_CORRELATION_KEY],
});

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

  it("a calling route continues after the sub-route's aggregator consumed its exchange", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:agg").setBody("${body} (caller went on)").to("mock:caller");
      r.from("direct:agg")
        .aggregate("${header.key}", { strategy: groupedBodies(), completionSize: 2 })
        .to("mock:groups");
    });
    await context.start();
    expect(await context.request("direct:caller", "a", { key: "k" })).toBe("a (caller went on)");
    expect(await context.request("direct:caller", "b", { key: "k" })).toBe("b (caller went on)");
    expect(context.endpoint("mock:groups").receivedBodies).toEqual([["a", "b"]]);
    expect(context.endpoint("mock:caller").receivedCount).toBe(2);
  });

  it("inside a block, a completed group runs the rest of that block", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:batch")
        .split("${body}", (part) =>
          part.aggregate("${body.kind}", { strategy: groupedBodies(), completionSize: 2 }).to("mock:grouped"),
        )
        .to("mock:after"),
    );
    await context.start();
    const batch = [
      { kind: "a", n: 1 },
      { kind: "b", n: 2 },
      { kind: "a", n: 3 },
      { kind: "b", n: 4 },
    ];
    expect(await context.request("direct:batch", batch)).toEqual(batch);
    expect(context.endpoint("mock:grouped").receivedBodies).toEqual([
      [batch[0], batch[2]],
      [batch[1], batch[3]],
    ]);
    expect(context.endpoint("mock:after").receivedCount).toBe(1);
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

  it("useLatest keeps the latest exchange of the group", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:latest")
        .aggregate("${header.key}", { strategy: useLatest(), completionSize: 3 })
        .to("mock:latest"),
    );
    await context.start();
    for (const body of ["first", "second", "third"])
      await context.send("direct:latest", body, { key: "k", body });
    expect(context.endpoint("mock:latest").received.map(summary)).toEqual([
      { body: "third", completedBy: "size", size: 3, key: "k" },
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
