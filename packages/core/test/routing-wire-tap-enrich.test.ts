import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { collectingLogger } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("wireTap", () => {
  it("sends a copy that never affects the main exchange, even when the tap changes it and throws", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    const order: string[] = [];
    await context.addRoutes((r) => {
      r.from("direct:main")
        .routeId("main")
        .wireTap("direct:tap")
        .process((exchange) => {
          order.push(`main sees ${String(exchange.body)}`);
        })
        .setHeader("main", () => true)
        .to("mock:main");
      r.from("direct:tap")
        .routeId("tap")
        .process((exchange) => {
          order.push(`tap got ${String(exchange.body)} ${exchange.pattern}`);
          exchange.body = "tap body";
          exchange.headers.tapped = true;
          exchange.properties.tapped = true;
          throw new Error("tap exploded");
        });
    });
    await context.start();
    const exchange = await context.requestExchange("direct:main", { body: "order", headers: { id: 1 } });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("order");
    expect(exchange.headers).toEqual({ id: 1, main: true });
    expect(exchange.properties.tapped).toBeUndefined();
    await tick();
    // The main route went on before the tap started.
    expect(order).toEqual(["main sees order", "tap got order InOnly"]);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(
      /^warn Route 'main' step #1 wireTap: the wire tap to 'direct:tap' failed for exchange \S+: Error: tap exploded$/,
    );
  });

  it("logs a tap without consumer and carries on", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r
        .from("direct:main")
        .wireTap("direct:nobody")
        .setBody(() => "done"),
    );
    await context.start();
    expect(await context.request("direct:main", "x")).toBe("done");
    await tick();
    expect(logger.lines[0]).toContain("No consumer on endpoint 'direct:nobody'");
  });

  it("graceful stop waits for the tap's work", async () => {
    context = createContext();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tapFinished = false;
    await context.addRoutes((r) => {
      r.from("direct:main").wireTap("direct:audit");
      r.from("direct:audit").process(async () => {
        await gate;
        tapFinished = true;
      });
    });
    await context.start();
    await context.request("direct:main", "x");
    await tick();
    let stopped = false;
    const stopping = context.stop().then(() => {
      stopped = true;
    });
    for (let index = 0; index < 5; index++) await tick();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(tapFinished).toBe(true);
  });
});

describe("enrich", () => {
  it("by default the resource's body replaces the body; headers stay", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:main").enrich("direct:price").to("mock:out");
      r.from("direct:price")
        .setBody((exchange: Exchange) => ({ sku: exchange.body, price: 12 }))
        .setHeader("pricing", () => "v2");
    });
    await context.start();
    const exchange = await context.requestExchange("direct:main", { body: "sku-1", headers: { a: 1 } });
    expect(exchange.body).toEqual({ sku: "sku-1", price: 12 });
    expect(exchange.headers).toEqual({ a: 1 });
  });

  it("merges with a custom strategy; returning the resource takes its body and headers", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:price")
        .setBody(() => 12)
        .setHeader("pricing", () => "v2");
      r.from<{ sku: string }>("direct:merge")
        .enrich("direct:price", (original, resource: Exchange<number>) => ({
          body: { sku: original.body.sku, price: resource.body },
        }))
        .transform((exchange) => ({ ...exchange.body, merged: exchange.headers.merged }));
      r.from("direct:take").enrich("direct:price", (_original, resource) => resource);
    });
    await context.start();
    expect(await context.request("direct:merge", { sku: "a" }, { merged: "original header" })).toEqual({
      sku: "a",
      price: 12,
      merged: "original header",
    });
    const taken = await context.requestExchange("direct:take", { body: "x", headers: { a: 1 } });
    expect(taken.body).toBe(12);
    expect(taken.headers).toEqual({ a: 1, pricing: "v2" });
  });

  it("works with request-reply over seda", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:main").enrich("seda:lookup");
      r.from("seda:lookup").setBody("found ${body}");
    });
    await context.start();
    expect(await context.request("direct:main", "k")).toBe("found k");
  });

  it("fails the exchange when the resource fails or the strategy returns no exchange", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:main").routeId("main").enrich("direct:broken");
      r.from("direct:broken")
        .routeId("broken")
        .process(() => {
          throw new Error("lookup failed");
        });
      r.from("direct:garbage")
        .routeId("garbage")
        .enrich("mock:x", () => "nope" as never);
      r.from("direct:bad-headers")
        .routeId("bad-headers")
        .enrich("mock:x", () => ({ body: 1, headers: "tagged" as never }));
    });
    await context.start();
    await expect(context.request("direct:main", "k")).rejects.toThrow(
      "Route 'broken' failed at step #1 process: Error: lookup failed",
    );
    await expect(context.request("direct:garbage", "k")).rejects.toThrow(
      "Route 'garbage' failed at step #1 enrich: RoutekitError: enrich aggregate strategy must return { body, headers? } or an exchange (original or resource), found string \"nope\"",
    );
    await expect(context.request("direct:bad-headers", "k")).rejects.toThrow(
      "Route 'bad-headers' failed at step #1 enrich: RoutekitError: enrich aggregate strategy returned headers that are not an object: string \"tagged\"",
    );
  });
});
