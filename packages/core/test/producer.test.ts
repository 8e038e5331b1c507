import { createContext, NoConsumerError, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("context.producer", () => {
  it("requests and sends as context.request and context.send do, the caller's headers copied", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:double")
        .setHeader("seen", "${header.customer}")
        .setBody((exchange) => (exchange.body as number) * 2)
        .to("mock:doubled");
      r.from("seda:later").to("mock:later");
    });
    await context.start();
    const double = context.producer("direct:double");
    expect(double.uri).toBe("direct:double");
    const headers = { customer: "ada" };
    expect(await double.request(21, headers)).toBe(42);
    expect(await double.request(1)).toBe(2);
    expect(headers).toEqual({ customer: "ada" });
    const received = context.endpoint("mock:doubled").received;
    expect(received.map((exchange) => exchange.headers.seen)).toEqual(["ada", undefined]);
    const later = context.endpoint("mock:later").expectedBodiesReceived("queued");
    await context.producer("seda:later").send("queued");
    await later.assertIsSatisfied(2000);
  });

  it("rejects with the route's error naming route and step, and with NoConsumerError when nobody consumes", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:fail")
        .routeId("failing")
        .process(() => {
          throw new Error("no stock");
        }),
    );
    await context.start();
    await expect(context.producer("direct:fail").request("x")).rejects.toThrow(
      "Route 'failing' failed at step #1 process: Error: no stock",
    );
    await expect(context.producer("direct:nobody").send("x")).rejects.toBeInstanceOf(NoConsumerError);
  });

  it("checks the URI when the handle is made, and the context's state on each call", async () => {
    context = createContext();
    expect(() => context.producer("nope:x")).toThrow(RoutekitError);
    expect(() => context.producer("direct:x?bogus=1")).toThrow("bogus");
    const early = context.producer("direct:x");
    await expect(early.request(1)).rejects.toThrow(
      "Cannot send to 'direct:x': the context is created (call context.start() first)",
    );
  });
});

describe("headers and properties", () => {
  it("are objects on every exchange, made on first use, and may be replaced", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .process((exchange) => {
          exchange.properties.touched = Object.keys(exchange.headers).length;
          exchange.headers = { replaced: true };
        })
        .to("mock:out"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    expect(exchange.headers).toEqual({ replaced: true });
    expect(exchange.properties).toEqual({ touched: 0 });
    const created = context.createExchange();
    expect(created.headers).toEqual({});
    expect(created.properties).toEqual({});
    created.headers.a = 1;
    expect(created.headers).toEqual({ a: 1 });
  });

  it("of a split part are the original's copies: a part's changes never reach the original or other parts", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .setHeader("order", "o-1")
        .split("${body}", (part) =>
          part
            .process((exchange) => {
              exchange.headers.part = exchange.body;
              exchange.properties.mark = exchange.body;
            })
            .to("mock:parts"),
        )
        .to("mock:after"),
    );
    await context.start();
    await context.request("direct:in", ["a", "b"], { trace: "t" });
    const parts = context.endpoint("mock:parts").received;
    expect(parts.map((exchange) => exchange.headers)).toEqual([
      { trace: "t", order: "o-1", part: "a" },
      { trace: "t", order: "o-1", part: "b" },
    ]);
    expect(parts.map((exchange) => exchange.properties["split.index"])).toEqual([0, 1]);
    expect(parts.map((exchange) => exchange.properties["split.size"])).toEqual([2, 2]);
    expect(parts.map((exchange) => exchange.properties["split.complete"])).toEqual([false, true]);
    const after = context.endpoint("mock:after").received[0];
    expect(after?.headers).toEqual({ trace: "t", order: "o-1" });
    expect(after?.properties.mark).toBeUndefined();
  });
});
