import { createContext, type RouteContext } from "@routekit/core";
import { firstValueFrom, lastValueFrom, map, take, toArray } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("context.observe(uri)", () => {
  it("gives the exchanges entering routes from the endpoint, in order, also through another route", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("in").to("direct:orders");
      r.from("direct:orders").routeId("orders").to("mock:orders");
      r.from("direct:other").routeId("other").to("mock:other");
    });
    await context.start();
    const seen = lastValueFrom(
      context.observe<string>("direct:orders").pipe(
        map((exchange) => exchange.body),
        take(3),
        toArray(),
      ),
    );

    await context.send("direct:in", "a");
    await context.send("direct:other", "not this one");
    await context.send("direct:orders", "b");
    await context.send("direct:in", "c");

    expect(await seen).toEqual(["a", "b", "c"]);
  });

  it("hands on the exchange before the route's first step, for routes added after subscribing", async () => {
    context = createContext();
    await context.start();
    // The body as it was when the exchange was handed on (the route changes it afterwards).
    const first = firstValueFrom(
      context
        .observe<{ n: number }>("seda:late")
        .pipe(map((exchange) => ({ exchange, body: exchange.body }))),
    );
    await context.addRoutes((r) =>
      r
        .from<{ n: number }>("seda:late")
        .process((exchange) => {
          exchange.body = { n: exchange.body.n + 1 };
        })
        .to("mock:late"),
    );

    await context.send("seda:late", { n: 1 });

    const { exchange, body } = await first;
    expect(body).toEqual({ n: 1 });
    await context.endpoint("mock:late").expectedMessageCount(1).assertIsSatisfied(2000);
    expect(exchange.body).toEqual({ n: 2 });
  });

  it("removes its listeners when unsubscribed", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:a").to("mock:a"));
    await context.start();
    const bodies: unknown[] = [];

    const first = context.observe("direct:a").subscribe((exchange) => bodies.push(exchange.body));
    const second = context.observe("direct:a").subscribe(() => {});
    for (const type of ["exchange-created", "route-removed", "context-stopped"] as const) {
      expect(context.events.has(type)).toBe(true);
    }
    await context.send("direct:a", 1);
    first.unsubscribe();
    expect(context.events.has("exchange-created")).toBe(true);
    second.unsubscribe();

    for (const type of ["exchange-created", "route-removed", "context-stopped"] as const) {
      expect(context.events.has(type)).toBe(false);
    }
    await context.send("direct:a", 2);
    expect(bodies).toEqual([1]);
  });

  it("completes when the context stops, and at once on a stopped context", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:a").to("mock:a"));
    await context.start();
    const all = lastValueFrom(context.observe("direct:a").pipe(toArray()));
    await context.send("direct:a", "x");

    await context.stop();

    expect((await all).map((exchange) => exchange.body)).toEqual(["x"]);
    expect(await lastValueFrom(context.observe("direct:a").pipe(toArray()))).toEqual([]);
    expect(context.events.has("context-stopped")).toBe(false);
  });

  it("refuses a URI with no component, a bad URI, and an endpoint nothing consumes from", () => {
    context = createContext();
    expect(() => context.observe("nope:orders")).toThrow(/no component for scheme 'nope'/);
    expect(() => context.observe("")).toThrow(
      "context.observe() expects an endpoint URI like 'direct:orders' (found string \"\")",
    );
    expect(() => context.observe("timer:t?period=soon")).toThrow(/period/);
    expect(() => context.observe("mock:orders")).toThrow(
      "context.observe('mock:orders'): no route can consume from this endpoint, so no exchange ever reaches one (a mock: endpoint records what is sent to it: context.endpoint('mock:orders'))",
    );
  });
});
