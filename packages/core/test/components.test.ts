import { createContext, type RouteContext } from "@routekit/core";
import { collectingLogger } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("timer", () => {
  it("fires repeatCount times with name, time and counter headers", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("timer:tick?period=10&repeatCount=3").to("mock:ticks"));
    await context.start();
    const mock = context.endpoint("mock:ticks").expectedMessageCount(3);
    await mock.assertIsSatisfied(2000);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(mock.receivedCount).toBe(3);
    expect(mock.received.map((exchange) => exchange.headers["timer.counter"])).toEqual([1, 2, 3]);
    expect(mock.received[0]?.headers["timer.name"]).toBe("tick");
    expect(mock.received[0]?.headers["timer.firedTime"]).toBeInstanceOf(Date);
  });

  it("skips ticks while an exchange runs, and still fires repeatCount exchanges", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("timer:slow?period=5&repeatCount=3")
        .process(() => new Promise((resolve) => setTimeout(resolve, 30)))
        .to("mock:slow"),
    );
    await context.start();
    const mock = context.endpoint("mock:slow").expectedMessageCount(3);
    await mock.assertIsSatisfied(3000);
    expect(mock.received.map((exchange) => exchange.headers["timer.counter"])).toEqual([1, 2, 3]);
  });

  it("cannot be sent to", async () => {
    context = createContext();
    await context.start();
    await expect(context.send("timer:x", 1)).rejects.toThrow("a timer can only be consumed from");
  });
});

describe("log", () => {
  it("logs the exchange at the level asked, and nothing at level off", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r
        .from("direct:l")
        .routeId("logged")
        .to("log:orders?level=warn&showHeaders=true")
        .to("log:quiet?level=off")
        .log("body is ${body}", "debug")
        .log((exchange) => `fn ${String(exchange.body)}`),
    );
    await context.start();
    await context.request("direct:l", { n: 1 }, { h: "v" });
    expect(logger.lines[0]).toMatch(
      /^warn \[orders\] Exchange\[Id: .*, Headers: \{"h":"v"\}, Body: \{"n":1\}\]$/,
    );
    expect(logger.lines[1]).toBe('debug [logged] body is {"n":1}');
    expect(logger.lines[2]).toBe("info [logged] fn [object Object]");
    expect(logger.lines).toHaveLength(3);
  });
});

describe("mock", () => {
  it("fails assertions with what was expected and what arrived", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:m").to("mock:m"));
    await context.start();
    await context.send("direct:m", "a");
    const mock = context.endpoint("mock:m").expectedBodiesReceived("b");
    await expect(mock.assertIsSatisfied(50)).rejects.toThrow(
      `Mock endpoint 'mock:m' is not satisfied: expected bodies ["b"], received ["a"]`,
    );
    mock.reset();
    mock.expectedMessageCount(2);
    await expect(mock.assertIsSatisfied(30)).rejects.toThrow("expected 2 messages, received 0");
  });

  it("can react to messages and retain none", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:m").to("mock:none?retainFirst=0"));
    await context.start();
    context.endpoint("mock:none?retainFirst=0").whenAnyExchangeReceived((exchange) => {
      exchange.body = "reacted";
    });
    expect(await context.request("direct:m", 1)).toBe("reacted");
    expect(context.endpoint("mock:none?retainFirst=0").received).toEqual([]);
    expect(context.endpoint("mock:none?retainFirst=0").receivedCount).toBe(1);
  });
});

describe("events", () => {
  it("emits typed lifecycle and exchange events", async () => {
    context = createContext();
    const seen: string[] = [];
    context.events.on("route-started", (event) => seen.push(`started ${event.routeId}`));
    context.events.on("exchange-completed", (event) =>
      seen.push(`completed ${event.routeId} ${typeof event.durationMs}`),
    );
    const off = context.events.on("exchange-failed", (event) =>
      seen.push(`failed ${event.routeId} ${event.error.message}`),
    );
    await context.addRoutes((r) => {
      r.from("direct:ok").routeId("ok");
      r.from("direct:bad")
        .routeId("bad")
        .process(() => {
          throw new Error("nope");
        });
    });
    await context.start();
    await context.request("direct:ok");
    await context.request("direct:bad").catch(() => undefined);
    off();
    await context.request("direct:bad").catch(() => undefined);
    expect(seen).toEqual(["started ok", "started bad", "completed ok number", "failed bad nope"]);
    expect(context.events.has("exchange-failed")).toBe(false);
  });
});
