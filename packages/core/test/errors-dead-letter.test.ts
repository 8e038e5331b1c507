import { createContext, RouteBuilder, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

class Routes extends RouteBuilder {
  constructor(private readonly useOriginalMessage: boolean) {
    super();
  }

  override configure(): void {
    this.errorHandler({
      deadLetterUri: "mock:dead",
      useOriginalMessage: this.useOriginalMessage,
      maximumRedeliveries: 2,
      redeliveryDelay: 10,
    });
    this.from("direct:orders")
      .routeId("orders")
      .setBody("${body} (enriched)")
      .setHeader("stage", "enriched")
      .process(() => {
        throw new RangeError("stock service down");
      }, "reserve")
      .to("mock:done");
  }
}

describe("dead letter channel", () => {
  it("after the redeliveries, the ORIGINAL message goes to the dead letter endpoint with useOriginalMessage", async () => {
    vi.useFakeTimers({ now: 0 });
    context = createContext();
    await context.addRoutes(new Routes(true));
    await context.start();
    const reply = context.requestExchange("direct:orders", { body: "order 7", headers: { customer: "ada" } });
    await vi.advanceTimersByTimeAsync(19);
    expect(context.endpoint("mock:dead").receivedCount).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    const exchange = await reply;
    const dead = context.endpoint("mock:dead");
    expect(dead.receivedCount).toBe(1);
    const received = dead.received[0]!;
    expect(received.body).toBe("order 7");
    expect(received.headers).toEqual({
      customer: "ada",
      "routekit.exception": "RangeError: stock service down",
      "routekit.failedRouteId": "orders",
      "routekit.failedStep": "#3 process(reserve)",
    });
    // Dead-lettered counts as handled: the caller gets no error and the route stops.
    expect(exchange.error).toBeUndefined();
    expect(context.endpoint("mock:done").receivedCount).toBe(0);
  });

  it("without useOriginalMessage the failed message (as it was at the failing step) is dead-lettered", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:dead" });
      r.from("direct:orders")
        .routeId("orders")
        .setBody("${body} (enriched)")
        .setHeader("stage", "enriched")
        .process(() => {
          throw new RangeError("down");
        });
    });
    await context.start();
    await expect(context.request("direct:orders", "order 8")).resolves.toBe("order 8 (enriched)");
    const received = context.endpoint("mock:dead").received[0]!;
    expect(received.body).toBe("order 8 (enriched)");
    expect(received.headers.stage).toBe("enriched");
    expect(received.headers["routekit.failedStep"]).toBe("#3 process");
  });

  it("a route-local errorHandler replaces the builder-wide one for that route", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:builder-dead" });
      r.from("direct:a").process(() => {
        throw new Error("a");
      });
      r.from("direct:b")
        .errorHandler({ deadLetterUri: "mock:route-dead" })
        .process(() => {
          throw new Error("b");
        });
    });
    await context.start();
    await context.request("direct:a", "a");
    await context.request("direct:b", "b");
    expect(context.endpoint("mock:builder-dead").receivedBodies).toEqual(["a"]);
    expect(context.endpoint("mock:route-dead").receivedBodies).toEqual(["b"]);
  });

  it("a matching onException clause decides instead of the dead letter channel", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:dead" });
      r.onException(TypeError, { handled: true, step: (s) => s.setBody("clause") });
      r.from("direct:in").process((exchange) => {
        throw exchange.body === "type" ? new TypeError("t") : new Error("e");
      });
    });
    await context.start();
    expect(await context.request("direct:in", "type")).toBe("clause");
    expect(await context.request("direct:in", "other")).toBe("other");
    expect(context.endpoint("mock:dead").receivedBodies).toEqual(["other"]);
  });

  it("the dead letter endpoint may be a route; its error is not swallowed", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "direct:dead" });
      r.from("direct:in").process(() => {
        throw new Error("original");
      });
      r.from("direct:dead")
        .routeId("dead")
        .to("mock:dead-route")
        .process((exchange) => {
          if (exchange.body === "break") throw new Error("dead letter store unavailable");
        });
    });
    await context.start();
    await expect(context.request("direct:in", "ok")).resolves.toBe("ok");
    expect(context.endpoint("mock:dead-route").receivedCount).toBe(1);
    await expect(context.request("direct:in", "break")).rejects.toThrow("dead letter store unavailable");
  });

  it("a dead letter endpoint with no consumer fails the exchange with a clear error", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "direct:nobody" });
      r.from("direct:in").process(() => {
        throw new Error("original");
      });
    });
    await context.start();
    await expect(context.request("direct:in", "x")).rejects.toThrow(
      /No consumer on endpoint 'direct:nobody'/,
    );
  });

  it("a bad dead letter URI fails when the route is added", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => {
        r.errorHandler({ deadLetterUri: "nowhere:dead" });
        r.from("direct:in").to("mock:x");
      }),
    ).rejects.toThrow(/no component for scheme 'nowhere'/);
  });
});
