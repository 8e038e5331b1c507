import { createContext, type Exchange } from "@routekit/core";
import { compilePredicate } from "@routekit/core/internal";
import { scaledMs } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { watchEventLoop } from "../support/event-loop-watch.js";

function exchangeOf(body: unknown): Exchange {
  return { body, headers: {}, properties: {} } as unknown as Exchange;
}

const contexts: ReturnType<typeof createContext>[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.stop()));
});

describe("attack: the simple language's regex operator over a hostile body", () => {
  it("([a-z]+ ?)+ over a 28-byte body does not stall (linear-time engine)", () => {
    const matches = compilePredicate("${body regex '([a-z]+ ?)+'}");
    const watch = watchEventLoop();
    const startedAt = performance.now();
    expect(matches(exchangeOf("aaaaaaaaaaaaaaaaaaaaaaaaaaa!"))).toBe(false);
    expect(matches(exchangeOf("hello big world"))).toBe(true);
    expect(performance.now() - startedAt).toBeLessThan(scaledMs(100));
    const report = watch.stop();
    expect(report.heapGrowthMb).toBeLessThan(16);
  });

  it("nested quantifiers over 100,000 characters stay linear", () => {
    const matches = compilePredicate("${body regex '(a+)+$'}");
    const startedAt = performance.now();
    expect(matches(exchangeOf(`${"a".repeat(99_999)}!`))).toBe(false);
    expect(performance.now() - startedAt).toBeLessThan(scaledMs(2000));
  });

  it("a route keeps its event loop while hostile bodies go through a regex filter", async () => {
    const context = createContext();
    contexts.push(context);
    await context.addRoutes((routes) => {
      routes
        .from("direct:in")
        .routeId("regex-filter")
        .choice((choice) =>
          choice
            .when("${body regex '(x+x+)+y'}", (route) => route.setBody("matched"))
            .otherwise((route) => route.setBody("no")),
        );
    });
    await context.start();
    const watch = watchEventLoop();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => context.request("direct:in", `${"x".repeat(5000)}z`)),
    );
    const report = watch.stop();
    expect(new Set(replies)).toEqual(new Set(["no"]));
    expect(report.longestGapMs).toBeLessThan(scaledMs(500));
  });

  it("refuses backreferences and lookaround when the route is compiled, naming the engine", () => {
    expect(() => compilePredicate("${body regex '(a)\\\\1'}")).toThrow(
      /invalid regex pattern \(error parsing regexp: invalid escape sequence/,
    );
    expect(() => compilePredicate("${body regex '(?=a)a'}")).toThrow(/no backreferences or lookaround/);
  });
});
