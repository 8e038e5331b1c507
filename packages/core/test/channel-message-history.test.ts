import { createContext, messageHistoryOf, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("message history", () => {
  it("is off by default: an exchange carries none", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .setBody(() => 2)
        .to("mock:out"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    expect(messageHistoryOf(exchange)).toEqual([]);
  });

  it("records every step an exchange went through, sub-routes and nested blocks included, in order", async () => {
    context = createContext({ messageHistory: true });
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("main")
        .choice((c) =>
          c.when(
            () => true,
            (route) => route.to("direct:sub"),
          ),
        )
        .to("mock:out");
      r.from("direct:sub").routeId("sub").delay(5);
    });
    await context.start();
    const before = Date.now();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    const history = messageHistoryOf(exchange);
    expect(history.map((entry) => `${entry.routeId} ${entry.stepPath}`)).toEqual([
      "main #1 choice",
      "main #1 choice when #1 > #1 to(direct:sub)",
      "sub #1 delay",
      "main #2 to(mock:out)",
    ]);
    for (const entry of history) {
      expect(entry.startedAt).toBeGreaterThanOrEqual(before);
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(history[2]?.durationMs).toBeGreaterThanOrEqual(4);
    expect(history[0]?.durationMs).toBeGreaterThanOrEqual(history[2]?.durationMs ?? 0);
  });

  it("keeps only the most recently started entries past its bound", async () => {
    context = createContext({ messageHistory: { maxEntries: 3 } });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .loop(10, (route) => route.setBody((exchange) => (exchange.body as number) + 1))
        .to("mock:out"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 0 });
    expect(exchange.body).toBe(10);
    expect(messageHistoryOf(exchange).map((entry) => entry.stepPath)).toEqual([
      "#1 loop > #1 setBody",
      "#1 loop > #1 setBody",
      "#2 to(mock:out)",
    ]);
  });

  it("records the failing step too, and rejects a bad option naming it", async () => {
    context = createContext({ messageHistory: true });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .process(() => {
          throw new Error("boom");
        })
        .to("mock:never"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    expect(exchange.error?.message).toBe("boom");
    expect(messageHistoryOf(exchange).map((entry) => entry.stepPath)).toEqual(["#1 process"]);
    expect(() => createContext({ messageHistory: { maxEntries: 0 } })).toThrow(RoutekitError);
    expect(() => createContext({ messageHistory: { maxEntries: 0 } })).toThrow(
      "createContext(): messageHistory.maxEntries must be an integer ≥ 1, found 0",
    );
    expect(() => createContext({ messageHistory: "yes" as never })).toThrow(
      "createContext(): messageHistory must be true, false or { maxEntries }, found string",
    );
  });
});
