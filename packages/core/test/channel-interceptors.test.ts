import {
  createContext,
  type Exchange,
  type RouteContext,
  RoutekitError,
  type StepInterceptor,
} from "@routekit/core";
import type { StepInfo } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** An interceptor that appends `name:path` to the exchange's `calls` property before each step. */
function recording(name: string, seen: StepInfo[] = []): StepInterceptor {
  return {
    name,
    wrapStep(step, next) {
      seen.push(step);
      return (exchange) => {
        exchange.properties.calls ??= [];
        (exchange.properties.calls as string[]).push(`${name}:${step.path}`);
        return next(exchange);
      };
    },
  };
}

describe("step interceptors", () => {
  it("wrap every step, the first added outermost, with the step's info", async () => {
    context = createContext();
    const seen: StepInfo[] = [];
    context.addInterceptor(recording("outer", seen)).addInterceptor({
      name: "inner",
      wrapStep: (step, next) => (exchange) => {
        (exchange.properties.calls as string[]).push(`inner:${step.path}`);
        return next(exchange);
      },
    });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("orders")
        .setHeader("kind", "book")
        .process((exchange) => {
          (exchange.properties.calls as string[]).push("step");
        })
        .to("mock:out"),
    );
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: 1 });
    expect(exchange.properties.calls).toEqual([
      "outer:#1 setHeader(kind)",
      "inner:#1 setHeader(kind)",
      "outer:#2 process",
      "inner:#2 process",
      "step",
      "outer:#3 to(mock:out)",
      "inner:#3 to(mock:out)",
    ]);
    expect(
      seen.map((step) => [step.routeId, step.path, step.label, step.index, step.definition.type]),
    ).toEqual([
      ["orders", "#1 setHeader(kind)", "#1 setHeader(kind)", 0, "setHeader"],
      ["orders", "#2 process", "#2 process", 1, "process"],
      ["orders", "#3 to(mock:out)", "#3 to(mock:out)", 2, "to"],
    ]);
  });

  it("is called once per step when the route is added, and may stay out of the way", async () => {
    context = createContext();
    let wraps = 0;
    context.addInterceptor({
      name: "counting",
      wrapStep: (_step, next) => {
        wraps++;
        return next;
      },
    });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .setBody(() => 2)
        .to("mock:out"),
    );
    await context.start();
    for (let index = 0; index < 5; index++) expect(await context.request("direct:in", 1)).toBe(2);
    expect(wraps).toBe(2);
  });

  it("leaves routes added before it alone", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:early").to("mock:early"));
    context.addInterceptor(recording("late"));
    await context.addRoutes((r) => r.from("direct:later").to("mock:later"));
    await context.start();
    const early = await context.requestExchange("direct:early", { body: 1 });
    const later = await context.requestExchange("direct:later", { body: 1 });
    expect(early.properties.calls).toBeUndefined();
    expect(later.properties.calls).toEqual(["late:#1 to(mock:later)"]);
  });

  it("sees a failing step's error and can tell it from success", async () => {
    context = createContext();
    const outcomes: string[] = [];
    context.addInterceptor({
      name: "outcomes",
      wrapStep: (step, next) => async (exchange: Exchange) => {
        try {
          await next(exchange);
        } catch (error) {
          outcomes.push(`${step.path} threw ${(error as Error).message}`);
          throw error;
        }
        outcomes.push(`${step.path} ${exchange.error === undefined ? "ok" : "failed"}`);
      },
    });
    await context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("failing")
        .setBody(() => "x")
        .process(() => {
          throw new Error("boom");
        })
        .to("mock:never"),
    );
    await context.start();
    await expect(context.request("direct:in", 1)).rejects.toThrow(
      "Route 'failing' failed at step #2 process: Error: boom",
    );
    expect(outcomes).toEqual(["#1 setBody ok", "#2 process threw boom"]);
    expect(context.endpoint("mock:never").received).toHaveLength(0);
  });

  it("fails addRoutes naming the route, step and interceptor when wrapStep throws", async () => {
    context = createContext();
    context.addInterceptor({
      name: "picky",
      wrapStep(step, next) {
        if (step.definition.type === "to") throw new Error("no endpoints allowed");
        return next;
      },
    });
    const added = context.addRoutes((r) =>
      r
        .from("direct:in")
        .routeId("picky-route")
        .choice((c) =>
          c.when(
            () => true,
            (route) => route.to("mock:a"),
          ),
        ),
    );
    await expect(added).rejects.toThrow(RoutekitError);
    await expect(added).rejects.toThrow(
      "Route 'picky-route' step #1 choice when #1 > #1 to(mock:a): interceptor 'picky' failed in wrapStep: no endpoints allowed",
    );
    expect(context.routes()).toEqual([]);
  });

  it("fails addRoutes when wrapStep returns something other than a processor", async () => {
    context = createContext();
    context.addInterceptor({ name: "broken", wrapStep: () => "nope" as never });
    await expect(context.addRoutes((r) => r.from("direct:in").routeId("r").to("mock:a"))).rejects.toThrow(
      "Route 'r' step #1 to(mock:a): interceptor 'broken' wrapStep must return a processor (exchange) => void | Promise<void>, found string \"nope\"",
    );
  });

  it("routes a wrapped processor's throw through the route's error handling, like the step's own", async () => {
    context = createContext();
    context.addInterceptor({
      name: "flaky",
      wrapStep: (step, next) => {
        if (step.definition.type !== "process") return next;
        return (exchange) => {
          const attempts = ((exchange.properties.attempts as number | undefined) ?? 0) + 1;
          exchange.properties.attempts = attempts;
          if (attempts < 3) throw new Error(`flaky attempt ${attempts}`);
          return next(exchange);
        };
      },
    });
    await context.addRoutes((r) => {
      r.onException(Error, { maximumRedeliveries: 5, redeliveryDelay: 1 });
      r.from("direct:retried")
        .process((exchange) => {
          exchange.body = `done after ${String(exchange.properties.attempts)}`;
        })
        .to("mock:retried");
    });
    await context.addRoutes((r) => {
      r.onException(Error, {
        handled: true,
        step: (route) => route.setBody(() => "handled").to("mock:dead"),
      });
      r.from("direct:handled").process(() => undefined);
    });
    await context.start();
    expect(await context.request("direct:retried", 1)).toBe("done after 3");
    const handled = await context.requestExchange("direct:handled", { body: 1 });
    expect(handled.error).toBeUndefined();
    expect(handled.body).toBe("handled");
    expect(context.endpoint("mock:dead").received[0]?.headers["routekit.exception"]).toBe(
      "Error: flaky attempt 1",
    );
  });

  it("rejects an interceptor that is not one, saying what it expected", () => {
    context = createContext();
    expect(() => context.addInterceptor(undefined as never)).toThrow(
      "addInterceptor() expects an interceptor { name: string, wrapStep(step, next) }, found undefined",
    );
    expect(() => context.addInterceptor({ name: "", wrapStep: (_step, next) => next })).toThrow(
      "addInterceptor() expects a non-empty string 'name'",
    );
    expect(() => context.addInterceptor({ name: "x" } as never)).toThrow(
      "addInterceptor(): interceptor 'x' needs a function wrapStep(step, next), found undefined",
    );
  });
});
