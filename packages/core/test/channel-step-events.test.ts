import { createContext, type RouteContext, type RoutekitEvents } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

type StepEvent = { type: string; routeId: string; stepPath: string; durationMs?: number; error?: Error };

/** Subscribes to the three step events; returns what they delivered and the unsubscribers. */
function listen(target: RouteContext): { events: StepEvent[]; stop: () => void } {
  const events: StepEvent[] = [];
  const record =
    (type: "step-started" | "step-completed" | "step-failed") =>
    (event: RoutekitEvents[typeof type]): void => {
      const { exchange: _exchange, ...rest } = event;
      events.push({ type, ...rest });
    };
  const offs = [
    target.events.on("step-started", record("step-started")),
    target.events.on("step-completed", record("step-completed")),
    target.events.on("step-failed", record("step-failed")),
  ];
  return {
    events,
    stop: () => {
      for (const off of offs) off();
    },
  };
}

const summary = (events: StepEvent[]) => events.map((event) => `${event.type} ${event.stepPath}`);

describe("step events", () => {
  it("reach a listener that subscribed after the routes were added and started, nested blocks included", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("orders")
        .choice((c) =>
          c
            .when("${body} == 'book'", (route) => route.to("mock:books"))
            .otherwise((route) => route.split("${body}", (part) => part.to("mock:parts"))),
        )
        .to("mock:done"),
    );
    await context.start();
    await context.request("direct:in", "book");
    const { events, stop } = listen(context);
    await context.request("direct:in", "book");
    expect(summary(events)).toEqual([
      "step-started #1 choice",
      "step-started #1 choice when #1 > #1 to(mock:books)",
      "step-completed #1 choice when #1 > #1 to(mock:books)",
      "step-completed #1 choice",
      "step-started #2 to(mock:done)",
      "step-completed #2 to(mock:done)",
    ]);
    events.length = 0;
    await context.request("direct:in", ["a", "b"]);
    expect(summary(events)).toEqual([
      "step-started #1 choice",
      "step-started #1 choice otherwise > #1 split",
      "step-started #1 choice otherwise > #1 split > #1 to(mock:parts)",
      "step-completed #1 choice otherwise > #1 split > #1 to(mock:parts)",
      "step-started #1 choice otherwise > #1 split > #1 to(mock:parts)",
      "step-completed #1 choice otherwise > #1 split > #1 to(mock:parts)",
      "step-completed #1 choice otherwise > #1 split",
      "step-completed #1 choice",
      "step-started #2 to(mock:done)",
      "step-completed #2 to(mock:done)",
    ]);
    for (const event of events) {
      expect(event.routeId).toBe("orders");
      if (event.type !== "step-started") expect(event.durationMs).toBeGreaterThanOrEqual(0);
    }
    stop();
    events.length = 0;
    await context.request("direct:in", "book");
    expect(events).toEqual([]);
  });

  it("report a failing step with its error, each redelivery attempt included, and name a sub-route's steps", async () => {
    context = createContext();
    let attempts = 0;
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("outer")
        .onException(Error, { maximumRedeliveries: 1, redeliveryDelay: 1 })
        .to("direct:inner");
      r.from("direct:inner")
        .routeId("inner")
        .process(() => {
          attempts++;
          throw new Error(`attempt ${attempts}`);
        });
    });
    await context.start();
    const { events } = listen(context);
    await expect(context.request("direct:in", 1)).rejects.toThrow("attempt 1");
    expect(
      events.map((event) => `${event.type} ${event.routeId} ${event.stepPath} ${event.error?.message ?? ""}`),
    ).toEqual([
      "step-started outer #1 to(direct:inner) ",
      "step-started inner #1 process ",
      "step-failed inner #1 process attempt 1",
      "step-failed outer #1 to(direct:inner) attempt 1",
    ]);
    expect(attempts).toBe(1);
  });

  it("count each redelivery of a failing step as a step of its own", async () => {
    context = createContext();
    let attempts = 0;
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("retry")
        .onException(Error, { maximumRedeliveries: 2, redeliveryDelay: 1 })
        .process(() => {
          attempts++;
          if (attempts < 3) throw new Error(`attempt ${attempts}`);
        }),
    );
    await context.start();
    const { events } = listen(context);
    await context.request("direct:in", 1);
    expect(events.map((event) => `${event.type} ${event.error?.message ?? "-"}`)).toEqual([
      "step-started -",
      "step-failed attempt 1",
      "step-started -",
      "step-failed attempt 2",
      "step-started -",
      "step-completed -",
    ]);
  });

  it("leave log steps at level off out unless someone intercepts steps", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:in").to("log:quiet?level=off").log("hidden", "off").to("mock:out"),
    );
    await context.start();
    const { events } = listen(context);
    await context.request("direct:in", 1);
    expect(summary(events)).toEqual(["step-started #3 to(mock:out)", "step-completed #3 to(mock:out)"]);
  });

  it("leave the route counters right: completed and failed per route, a sub-route counted on its own", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("outer").to("direct:inner");
      r.from("direct:inner")
        .routeId("inner")
        .process((exchange) => {
          if (exchange.body === "bad") throw new Error("bad body");
        });
    });
    await context.start();
    await context.request("direct:in", "good");
    await context.request("direct:in", "good");
    await expect(context.request("direct:in", "bad")).rejects.toThrow("bad body");
    const counters = Object.fromEntries(context.describe().routes.map((route) => [route.id, route.counters]));
    expect(counters).toEqual({
      outer: { inflight: 0, completed: 2, failed: 1 },
      inner: { inflight: 0, completed: 2, failed: 1 },
    });
  });
});
