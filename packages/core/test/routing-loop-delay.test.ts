import { createContext, LOOP_INDEX, LOOP_SIZE, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop();
});

describe("loop", () => {
  it("repeats a step a literal number of times on the same exchange", async () => {
    context = createContext();
    const seen: unknown[] = [];
    await context.addRoutes((r) =>
      r
        .from<string>("direct:count")
        .loop(3, (route) =>
          route
            .process((exchange) => {
              seen.push([exchange.properties[LOOP_INDEX], exchange.properties[LOOP_SIZE]]);
            })
            .setBody("${body}+"),
        )
        .to("mock:after"),
    );
    await context.start();
    expect(await context.request("direct:count", "x")).toBe("x+++");
    expect(seen).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
  });

  it("takes the count from an expression (a number or integer text); 0 runs nothing", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:header").loop("${header.times}", (route) => route.setBody("${body}!"));
      r.from("direct:function").loop(
        (exchange) => String(exchange.body).length,
        (route) => route.to("mock:each"),
      );
    });
    await context.start();
    expect(await context.request("direct:header", "a", { times: 2 })).toBe("a!!");
    expect(await context.request("direct:header", "a", { times: "4" })).toBe("a!!!!");
    expect(await context.request("direct:header", "a", { times: 0 })).toBe("a");
    await context.request("direct:function", "abc");
    expect(context.endpoint("mock:each").receivedCount).toBe(3);
  });

  it("repeats while a predicate holds (checked before each iteration)", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:text").loop("${body.length} < 4", (route) => route.setBody("${body}a"));
      r.from<number>("direct:function").loop(
        (exchange) => exchange.body < 100,
        (route) =>
          route.process(async (exchange) => {
            await Promise.resolve();
            exchange.body = Number(exchange.body) * 2;
          }),
      );
      r.from("direct:boolean").loop("${header.go}", (route) => route.to("mock:never"));
    });
    await context.start();
    expect(await context.request("direct:text", "")).toBe("aaaa");
    expect(await context.request("direct:text", "abcdef")).toBe("abcdef");
    expect(await context.request("direct:function", 3)).toBe(192);
    expect(await context.request("direct:boolean", "x", { go: false })).toBe("x");
    expect(context.endpoint("mock:never").receivedCount).toBe(0);
  });

  it("bounds conditions and computed counts with maxIterations", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:forever")
        .routeId("forever")
        .loop(
          () => true,
          (route) => route,
          { maxIterations: 50 },
        );
      r.from("direct:asyncForever")
        .routeId("asyncForever")
        .loop("${body} == 'x'", (route) => route.process(async () => undefined), { maxIterations: 5 });
      r.from("direct:huge")
        .routeId("huge")
        .loop("${header.times}", (route) => route.to("mock:huge"));
    });
    await context.start();
    await expect(context.request("direct:forever", "x")).rejects.toThrow(
      "Route 'forever' step #1 loop: the condition still holds after 50 iterations (maxIterations 50); raise maxIterations or fix the loop condition",
    );
    await expect(context.request("direct:asyncForever", "x")).rejects.toThrow(
      "the condition still holds after 5 iterations (maxIterations 5)",
    );
    await expect(context.request("direct:huge", "x", { times: 1_000_000 })).rejects.toThrow(
      "Route 'huge' step #1 loop: the loop expression asked for 1000000 iterations (maxIterations 10000)",
    );
    expect(context.endpoint("mock:huge").receivedCount).toBe(0);
  });

  it("stops at a failing iteration, and fails clearly on a value that is neither count nor condition", async () => {
    context = createContext();
    let runs = 0;
    await context.addRoutes((r) => {
      r.from("direct:fail")
        .routeId("fail")
        .loop(5, (route) =>
          route.process(() => {
            runs++;
            if (runs === 2) throw new Error("second run failed");
          }),
        );
      r.from("direct:odd")
        .routeId("odd")
        .loop("${header.n}", (route) => route);
    });
    await context.start();
    await expect(context.request("direct:fail", "x")).rejects.toThrow(
      "Route 'fail' failed at step #1 loop > #1 process: Error: second run failed",
    );
    expect(runs).toBe(2);
    await expect(context.request("direct:odd", "x", { n: "many" })).rejects.toThrow(
      "Route 'odd' step #1 loop: the loop expression yielded string \"many\", expected a count (an integer >= 0) or a boolean",
    );
    await expect(context.request("direct:odd", "x", { n: -1 })).rejects.toThrow("yielded number -1");
  });

  it("runs synchronously (no promise) when the step is synchronous", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:sync").loop(4, (route) => route.setBody("${body}.")));
    await context.start();
    const exchange = context.createExchange({ body: "", pattern: "InOut" });
    expect(context.endpoint("direct:sync").send(exchange)).toBeUndefined();
    expect(exchange.body).toBe("....");
  });
});

describe("delay", () => {
  it("waits the given milliseconds", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:fixed").delay(1000).to("mock:fixed");
      r.from("direct:computed").delay("${header.wait}").to("mock:computed");
    });
    await context.start();
    let done = false;
    const reply = context.request("direct:fixed", "x").then((body) => {
      done = true;
      return body;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await reply).toBe("x");
    let computed = false;
    const second = context.request("direct:computed", "y", { wait: "250" }).then(() => {
      computed = true;
    });
    await vi.advanceTimersByTimeAsync(249);
    expect(computed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(context.endpoint("mock:computed").receivedBodies).toEqual(["y"]);
  });

  it("is aborted by the exchange's signal", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    context = createContext();
    await context.addRoutes((r) => r.from("direct:slow").routeId("slow").delay(60_000).to("mock:late"));
    await context.start();
    const controller = new AbortController();
    const pending = context.requestExchange("direct:slow", { body: "x", signal: controller.signal });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error("caller gave up"));
    const exchange = await pending;
    expect(exchange.error?.message).toBe("caller gave up");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(context.endpoint("mock:late").receivedCount).toBe(0);
  });

  it("zero runs synchronously; a bad computed value fails clearly", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:zero")
        .delay(0)
        .setBody(() => "now");
      r.from("direct:bad")
        .routeId("bad")
        .delay((exchange) => exchange.headers.wait as number);
    });
    await context.start();
    const exchange = context.createExchange({ body: "x", pattern: "InOut" });
    expect(context.endpoint("direct:zero").send(exchange)).toBeUndefined();
    expect(exchange.body).toBe("now");
    await expect(context.request("direct:bad", "x", { wait: -5 })).rejects.toThrow(
      "Route 'bad' step #1 delay: the delay expression yielded number -5, expected milliseconds >= 0",
    );
    await expect(context.request("direct:bad", "x", { wait: "soon" })).rejects.toThrow(
      'yielded string "soon"',
    );
  });
});
