import { createContext, type RouteContext, type StepInterceptor } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

// The core hook the plugin stands on: an interceptor's optional wrapRoute, tested through the
// public API as any interceptor would use it.
let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

function recording(name: string, seen: string[]): StepInterceptor {
  return {
    name,
    wrapStep: (_step, next) => next,
    wrapRoute:
      (route, next): Processor =>
      (exchange) => {
        seen.push(`${name} enters ${route.routeId} from ${route.from}`);
        const result = next(exchange);
        const done = () => {
          seen.push(`${name} leaves ${route.routeId}${exchange.error === undefined ? "" : " failed"}`);
        };
        if (result === undefined) return done();
        return result.then(done);
      },
  };
}

describe("wrapRoute on step interceptors", () => {
  it("wraps every run of a route, the first interceptor outermost, with the route's error handling inside", async () => {
    const seen: string[] = [];
    context = createContext({ logLevel: "off" });
    context.addInterceptor(recording("outer", seen)).addInterceptor(recording("inner", seen));
    await context.addRoutes((r) => {
      r.from("direct:a").routeId("a").to("direct:b");
      r.from("direct:b")
        .routeId("b")
        .process(() => {
          throw new Error("b failed");
        });
    });
    await context.start();
    await expect(context.request("direct:a", 1)).rejects.toThrow("b failed");
    expect(seen).toEqual([
      "outer enters a from direct:a",
      "inner enters a from direct:a",
      "outer enters b from direct:b",
      "inner enters b from direct:b",
      "inner leaves b failed",
      "outer leaves b failed",
      "inner leaves a failed",
      "outer leaves a failed",
    ]);
  });

  it("refuses a wrapRoute that is not a function, and names the interceptor and route when it throws", async () => {
    context = createContext({ logLevel: "off" });
    const odd = { name: "odd", wrapStep: (_step: unknown, next: Processor) => next, wrapRoute: 5 };
    expect(() => context?.addInterceptor(odd as never)).toThrow(
      "interceptor 'odd' has a wrapRoute that is not a function (found number 5)",
    );
    context.addInterceptor({
      name: "broken",
      wrapStep: (_step, next) => next,
      wrapRoute: () => {
        throw new Error("no route for you");
      },
    });
    await expect(context.addRoutes((r) => r.from("direct:x").routeId("x").setBody("y"))).rejects.toThrow(
      "Route 'x': interceptor 'broken' failed in wrapRoute: no route for you",
    );
  });
});
