import { createContext, type RouteContext, RoutekitError, type RoutekitEvents } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

/** A downstream service whose health the test switches. */
function service() {
  const state = { healthy: false, calls: 0 };
  const call = () => {
    state.calls++;
    if (!state.healthy) throw new Error(`service down (call ${state.calls})`);
  };
  return { state, call };
}

async function start(configure: Parameters<RouteContext["addRoutes"]>[0]) {
  context = createContext();
  const transitions: Array<RoutekitEvents["circuit-state-changed"]> = [];
  context.events.on("circuit-state-changed", (event) => transitions.push(event));
  await context.addRoutes(configure);
  await context.start();
  return transitions;
}

const codeOf = async (reply: Promise<unknown>): Promise<RoutekitError | undefined> => {
  const error = await reply.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const cause = (error as Error | undefined)?.cause;
  return cause instanceof RoutekitError ? cause : undefined;
};

describe("circuitBreaker", () => {
  it("opens after failureThreshold consecutive failures and then short-circuits without running the step", async () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
    const { state, call } = service();
    const transitions = await start((r) => {
      r.from("direct:in")
        .routeId("guarded")
        .circuitBreaker((step) => step.process(call), { failureThreshold: 3, resetTimeout: 5000 });
    });
    for (let index = 1; index <= 3; index++) {
      await expect(context.request("direct:in", "x")).rejects.toThrow(`service down (call ${index})`);
    }
    expect(transitions).toEqual([
      { routeId: "guarded", step: "#1 circuitBreaker", from: "closed", to: "open" },
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await codeOf(context.request("direct:in", "x"));
    expect(error?.code).toBe("CIRCUIT_OPEN");
    expect(error?.message).toBe(
      "Route 'guarded': circuit breaker #1 circuitBreaker is open after 3 consecutive failure(s); " +
        "it half-opens at 2030-01-01T00:00:05.000Z (in 4000 ms)",
    );
    expect(state.calls).toBe(3);
  });

  it("a success resets the consecutive failure count", async () => {
    const { state, call } = service();
    const transitions = await start((r) => {
      r.from("direct:in").circuitBreaker((step) => step.process(call), {
        failureThreshold: 2,
        resetTimeout: 1000,
      });
    });
    await expect(context.request("direct:in", "x")).rejects.toThrow();
    state.healthy = true;
    await context.request("direct:in", "x");
    state.healthy = false;
    await expect(context.request("direct:in", "x")).rejects.toThrow("service down (call 3)");
    expect(transitions).toEqual([]);
    await expect(context.request("direct:in", "x")).rejects.toThrow("service down (call 4)");
    expect(transitions.map((event) => event.to)).toEqual(["open"]);
  });

  it("after resetTimeout one trial call runs (half-open): success closes the circuit", async () => {
    vi.useFakeTimers({ now: 0 });
    const { state, call } = service();
    const transitions = await start((r) => {
      r.from("direct:in")
        .routeId("guarded")
        .circuitBreaker((step) => step.process(call).setBody("served"), {
          failureThreshold: 1,
          resetTimeout: 1000,
        });
    });
    await expect(context.request("direct:in", "x")).rejects.toThrow("service down");
    await vi.advanceTimersByTimeAsync(999);
    expect((await codeOf(context.request("direct:in", "x")))?.code).toBe("CIRCUIT_OPEN");
    await vi.advanceTimersByTimeAsync(1);
    state.healthy = true;
    expect(await context.request("direct:in", "x")).toBe("served");
    expect(await context.request("direct:in", "x")).toBe("served");
    expect(transitions.map((event) => [event.from, event.to])).toEqual([
      ["closed", "open"],
      ["open", "half-open"],
      ["half-open", "closed"],
    ]);
    expect(state.calls).toBe(3);
  });

  it("a failing trial call re-opens the circuit for another resetTimeout", async () => {
    vi.useFakeTimers({ now: 0 });
    const { state, call } = service();
    const transitions = await start((r) => {
      r.from("direct:in").circuitBreaker((step) => step.process(call), {
        failureThreshold: 1,
        resetTimeout: 1000,
      });
    });
    await expect(context.request("direct:in", "x")).rejects.toThrow("service down (call 1)");
    await vi.advanceTimersByTimeAsync(1000);
    await expect(context.request("direct:in", "x")).rejects.toThrow("service down (call 2)");
    await vi.advanceTimersByTimeAsync(999);
    expect((await codeOf(context.request("direct:in", "x")))?.code).toBe("CIRCUIT_OPEN");
    await vi.advanceTimersByTimeAsync(1);
    state.healthy = true;
    await context.request("direct:in", "x");
    expect(transitions.map((event) => event.to)).toEqual([
      "open",
      "half-open",
      "open",
      "half-open",
      "closed",
    ]);
  });

  it("while the trial call runs, other calls short-circuit", async () => {
    vi.useFakeTimers({ now: 0 });
    let healthy = false;
    let calls = 0;
    const transitions = await start((r) => {
      r.from("direct:in").circuitBreaker(
        (step) =>
          step.process(async () => {
            calls++;
            await new Promise((resolve) => setTimeout(resolve, 100));
            if (!healthy) throw new Error("down");
          }),
        { failureThreshold: 1, resetTimeout: 1000 },
      );
    });
    const first = context.requestExchange("direct:in", { body: "x" });
    await vi.advanceTimersByTimeAsync(100);
    expect((await first).error?.message).toBe("down");
    await vi.advanceTimersByTimeAsync(1000);
    healthy = true;
    const trial = context.request("direct:in", "trial");
    const error = await codeOf(context.request("direct:in", "during"));
    expect(error?.message).toContain("is half-open and its trial call is still running");
    await vi.advanceTimersByTimeAsync(100);
    expect(await trial).toBe("trial");
    expect(calls).toBe(2);
    expect(transitions.map((event) => event.to)).toEqual(["open", "half-open", "closed"]);
  });

  it("the fallback runs when the step fails and when the circuit is open, seeing why as ${exception}", async () => {
    vi.useFakeTimers({ now: 0 });
    const { state, call } = service();
    await start((r) => {
      r.from("direct:in")
        .circuitBreaker((step) => step.process(call), {
          failureThreshold: 2,
          resetTimeout: 1000,
          fallback: (fallback) => fallback.setBody("fallback: ${exception.message}"),
        })
        .setBody("${body} (then the route goes on)");
    });
    expect(await context.request("direct:in", "x")).toBe(
      "fallback: service down (call 1) (then the route goes on)",
    );
    expect(await context.request("direct:in", "x")).toBe(
      "fallback: service down (call 2) (then the route goes on)",
    );
    expect(await context.request("direct:in", "x")).toMatch(
      /^fallback: Route 'route\d+': circuit breaker #1 circuitBreaker is open/,
    );
    expect(state.calls).toBe(2);
  });

  it("keeps its state per circuitBreaker step, not globally", async () => {
    const first = service();
    const second = service();
    second.state.healthy = true;
    await start((r) => {
      r.from("direct:a").circuitBreaker((step) => step.process(first.call), {
        failureThreshold: 1,
        resetTimeout: 60_000,
      });
      r.from("direct:b").circuitBreaker((step) => step.process(second.call), {
        failureThreshold: 1,
        resetTimeout: 60_000,
      });
    });
    await expect(context.request("direct:a", "x")).rejects.toThrow("service down");
    expect((await codeOf(context.request("direct:a", "x")))?.code).toBe("CIRCUIT_OPEN");
    await expect(context.request("direct:b", "x")).resolves.toBe("x");
  });

  it("the route's onException does not see failures inside the breaker; it sees the error that leaves it", async () => {
    const { state, call } = service();
    await start((r) => {
      r.from("direct:in")
        .onException(Error, {
          maximumRedeliveries: 3,
          redeliveryDelay: 0,
          handled: true,
          step: (s) => s.setBody("route clause: ${exception.message}"),
        })
        .circuitBreaker((step) => step.process(call), { failureThreshold: 10, resetTimeout: 1000 });
    });
    // The route redelivers the circuitBreaker step as a whole: 4 calls, each counted as one failure.
    expect(await context.request("direct:in", "x")).toBe("route clause: service down (call 4)");
    expect(state.calls).toBe(4);
  });

  it("a failure of a call that started before the circuit opened does not count again", async () => {
    vi.useFakeTimers({ now: 0 });
    const transitions = await start((r) => {
      r.from("direct:in").circuitBreaker(
        (step) =>
          step.process(async (exchange) => {
            await new Promise((resolve) => setTimeout(resolve, exchange.body as number));
            throw new Error("down");
          }),
        { failureThreshold: 1, resetTimeout: 1000 },
      );
    });
    const fast = context.requestExchange("direct:in", { body: 10 });
    const slow = context.requestExchange("direct:in", { body: 1500 });
    await vi.advanceTimersByTimeAsync(1100);
    expect((await fast).error?.message).toBe("down");
    const trial = context.requestExchange("direct:in", { body: 10 });
    await vi.advanceTimersByTimeAsync(600);
    expect((await slow).error?.message).toBe("down");
    expect((await trial).error?.message).toBe("down");
    expect(transitions.map((event) => event.to)).toEqual(["open", "half-open", "open"]);
  });

  it("bad options fail when the route is added", async () => {
    context = createContext();
    const add = (options: unknown, step: unknown = (route: unknown) => route) =>
      context.addRoutes((r) => {
        r.from("direct:in")
          .routeId("cb")
          .circuitBreaker(step as never, options as never);
      });
    await expect(add({ resetTimeout: 10 })).rejects.toThrow(
      "Route 'cb': circuitBreaker() option 'failureThreshold' must be an integer >= 1 (it is required) (found undefined)",
    );
    await expect(add({ failureThreshold: 0, resetTimeout: 10 })).rejects.toThrow(
      "option 'failureThreshold' must be an integer >= 1 (found number 0)",
    );
    await expect(add({ failureThreshold: 1, resetTimeout: -1 })).rejects.toThrow(
      "option 'resetTimeout' must be a number >= 0 (found number -1)",
    );
    await expect(add({ failureThreshold: 1, resetTimeout: 1, fallback: "x" })).rejects.toThrow(
      "option 'fallback' must be a block callback",
    );
    await expect(add({ failureThreshold: 1, resetTimeout: 1, resetTimeoutMs: 1 })).rejects.toThrow(
      "circuitBreaker() has no option 'resetTimeoutMs' (did you mean resetTimeout?)",
    );
    await expect(add({ failureThreshold: 1, resetTimeout: 1 }, "to:x")).rejects.toThrow(
      /circuitBreaker\(\) expects the protected step as a callback/,
    );
  });
});
