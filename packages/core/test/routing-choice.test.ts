import { createContext, RouteBuilder, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("choice", () => {
  it("routes the DESIGN.md OrderRoutes example", async () => {
    class OrderRoutes extends RouteBuilder {
      configure() {
        this.from("direct:orders")
          .routeId("orders")
          .setHeader("kind", "${body.kind}")
          .choice((c) =>
            c
              .when("${header.kind} == 'book'", (r) => r.to("seda:books"))
              .otherwise((r) => r.to("log:other?level=off")),
          )
          .to("mock:done");
        this.from("seda:books").routeId("books").to("mock:books");
      }
    }
    context = createContext();
    await context.addRoutes(new OrderRoutes());
    await context.start();
    const books = context.endpoint("mock:books").expectedBodiesReceived({ kind: "book" });
    const reply = await context.request("direct:orders", { kind: "book" });
    expect(reply).toEqual({ kind: "book" });
    await context.request("direct:orders", { kind: "pen" });
    await books.assertIsSatisfied(2000);
    const done = context.endpoint("mock:done");
    expect(done.receivedBodies).toEqual([{ kind: "book" }, { kind: "pen" }]);
    expect(done.received.map((exchange) => exchange.headers.kind)).toEqual(["book", "pen"]);
  });

  it("takes the first matching branch only", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from<number>("direct:grade")
        .choice((c) =>
          c
            .when("${body} >= 90", (route) => route.setBody(() => "A"))
            .when("${body} >= 50", (route) => route.setBody(() => "pass"))
            .when(
              (exchange) => Number(exchange.body) >= 0,
              (route) => route.setBody(() => "fail"),
            )
            .otherwise((route) => route.setBody(() => "invalid")),
        )
        .to("mock:graded"),
    );
    await context.start();
    expect(await context.request("direct:grade", 95)).toBe("A");
    expect(await context.request("direct:grade", 60)).toBe("pass");
    expect(await context.request("direct:grade", 10)).toBe("fail");
    expect(await context.request("direct:grade", -1)).toBe("invalid");
    expect(context.endpoint("mock:graded").receivedCount).toBe(4);
  });

  it("without otherwise, an unmatched exchange continues unchanged", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:c")
        .choice((c) => c.when("${header.vip} == true", (route) => route.setBody(() => "vip")))
        .to("mock:after"),
    );
    await context.start();
    expect(await context.request("direct:c", "plain", { vip: false })).toBe("plain");
    expect(await context.request("direct:c", "plain", { vip: true })).toBe("vip");
    expect(context.endpoint("mock:after").receivedBodies).toEqual(["plain", "vip"]);
  });

  it("completes synchronously (no promise) when the chosen branch is synchronous", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:sync")
        .choice((c) =>
          c
            .when("${body} == 'slow'", (route) => route.process(async () => undefined))
            .otherwise((route) => route.setBody(() => "fast")),
        ),
    );
    await context.start();
    const endpoint = context.endpoint("direct:sync");
    const fast = context.createExchange({ body: "x", pattern: "InOut" });
    expect(endpoint.send(fast)).toBeUndefined();
    expect(fast.body).toBe("fast");
    const slow = context.createExchange({ body: "slow", pattern: "InOut" });
    const pending = endpoint.send(slow);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
  });

  it("an error in a branch names the route, the branch and the step", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:fails")
        .routeId("router")
        .choice((c) =>
          c.when("${body} == 'x'", (route) =>
            route.process(() => {
              throw new Error("boom");
            }),
          ),
        ),
    );
    await context.start();
    await expect(context.request("direct:fails", "x")).rejects.toThrow(
      "Route 'router' failed at step #1 choice when #1 > #1 process: Error: boom",
    );
  });

  it("refuses malformed choices when the route is added", async () => {
    context = createContext();
    const attempt = (build: (c: never) => unknown) =>
      context.addRoutes((r) => {
        r.from("direct:bad")
          .routeId("bad")
          .choice(build as never);
      });
    await expect(attempt(() => undefined)).rejects.toThrow("Route 'bad': choice() needs at least one when()");
    await expect(
      attempt((c: { otherwise(step: unknown): unknown }) => c.otherwise((r: unknown) => r)),
    ).rejects.toThrow("choice() has otherwise() before any when()");
    await expect(
      attempt(
        (c: {
          when(p: unknown, s: unknown): { otherwise(s: unknown): { when(p: unknown, s: unknown): unknown } };
        }) =>
          c
            .when("true", (r: unknown) => r)
            .otherwise((r: unknown) => r)
            .when("true", (r: unknown) => r),
      ),
    ).rejects.toThrow("choice() has a when() after otherwise(): otherwise() must come last");
    await expect(
      attempt(
        (c: {
          when(p: unknown, s: unknown): { otherwise(s: unknown): { otherwise(s: unknown): unknown } };
        }) =>
          c
            .when("true", (r: unknown) => r)
            .otherwise((r: unknown) => r)
            .otherwise((r: unknown) => r),
      ),
    ).rejects.toThrow("choice() has otherwise() twice");
    await expect(
      attempt((c: { when(p: unknown, s: unknown): unknown }) => c.when(42, (r: unknown) => r)),
    ).rejects.toThrow(
      "choice() expects a predicate in when() #1 (a string or a function of the exchange), found number 42",
    );
    await expect(
      attempt((c: { when(p: unknown, s: unknown): unknown }) => c.when("true", "mock:x")),
    ).rejects.toThrow("choice() expects the step of when() #1 as a callback");
    await expect(
      context.addRoutes((r) => {
        r.from("direct:bad2")
          .routeId("bad2")
          .choice("nope" as never);
      }),
    ).rejects.toThrow(
      "Route 'bad2': choice() expects a callback (c) => c.when(predicate, step)..., found string",
    );
    await expect(
      context.addRoutes((r) => {
        r.from("direct:bad3")
          .routeId("bad3")
          .choice((c) => c.when("${header.x} ==", (route) => route));
      }),
    ).rejects.toThrow(RoutekitError);
  });
});
