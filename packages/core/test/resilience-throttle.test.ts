import { createContext, type Exchange, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

/** Records when each body passed the throttle. */
function recorder() {
  const passed: Array<{ body: unknown; at: number }> = [];
  const step = (exchange: Exchange) => {
    passed.push({ body: exchange.body, at: Date.now() });
  };
  return { passed, step };
}

describe("throttle(maxRequests, { periodMs })", () => {
  it("lets at most n exchanges start per period; the others wait, in order", async () => {
    vi.useFakeTimers({ now: 0 });
    const { passed, step } = recorder();
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").throttle(2, { periodMs: 1000 }).process(step);
    });
    await context.start();
    const replies = [1, 2, 3, 4, 5].map((body) => context.request("direct:in", body));
    await vi.advanceTimersByTimeAsync(0);
    expect(passed).toEqual([
      { body: 1, at: 0 },
      { body: 2, at: 0 },
    ]);
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(replies);
    expect(passed).toEqual([
      { body: 1, at: 0 },
      { body: 2, at: 0 },
      { body: 3, at: 1000 },
      { body: 4, at: 1000 },
      { body: 5, at: 2000 },
    ]);
  });

  it("uses a sliding window: no period of periodMs ever holds more than n starts", async () => {
    vi.useFakeTimers({ now: 0 });
    const { passed, step } = recorder();
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").throttle(2, { periodMs: 1000 }).process(step);
    });
    await context.start();
    void context.request("direct:in", "a");
    await vi.advanceTimersByTimeAsync(600);
    const later = ["b", "c", "d"].map((body) => context.request("direct:in", body));
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(later);
    expect(passed.map((entry) => [entry.body, entry.at])).toEqual([
      ["a", 0],
      ["b", 600],
      ["c", 1000],
      ["d", 1600],
    ]);
  });

  it("passes synchronously under the limit", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").throttle(100).setBody("${body}!");
    });
    await context.start();
    expect(await context.request("direct:in", "a")).toBe("a!");
  });

  it("rejectExecution fails an over-limit exchange at once with THROTTLED", async () => {
    vi.useFakeTimers({ now: 0 });
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("limited")
        .throttle(1, { periodMs: 500, rejectExecution: true })
        .to("mock:out");
    });
    await context.start();
    await context.request("direct:in", 1);
    const error = await context.request("direct:in", 2).catch((failure: unknown) => failure);
    expect((error as Error).cause).toBeInstanceOf(RoutekitError);
    const cause = (error as Error).cause as RoutekitError;
    expect(cause.code).toBe("THROTTLED");
    expect(cause.message).toBe(
      "Route 'limited': #1 throttle rejected the exchange: 1 exchange(s) already started in the last 500 ms (rejectExecution is on)",
    );
    await vi.advanceTimersByTimeAsync(500);
    await context.request("direct:in", 3);
    expect(context.endpoint("mock:out").receivedBodies).toEqual([1, 3]);
  });

  it("maxQueued bounds the waiting line with a clear QUEUE_FULL error", async () => {
    vi.useFakeTimers({ now: 0 });
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").routeId("limited").throttle(1, { periodMs: 1000, maxQueued: 2 }).to("mock:out");
    });
    await context.start();
    const accepted = [1, 2, 3].map((body) => context.request("direct:in", body));
    const error = await context.request("direct:in", 4).catch((failure: unknown) => failure);
    const cause = (error as Error).cause as RoutekitError;
    expect(cause.code).toBe("QUEUE_FULL");
    expect(cause.message).toContain("Route 'limited': #1 throttle has 2 exchange(s) waiting (maxQueued 2)");
    expect(cause.message).toContain("raise maxQueued, or set rejectExecution to fail fast");
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all(accepted);
    expect(context.endpoint("mock:out").receivedBodies).toEqual([1, 2, 3]);
  });

  it("a waiting exchange leaves the line when its signal aborts; the ones behind it move up", async () => {
    vi.useFakeTimers({ now: 0 });
    const { passed, step } = recorder();
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").throttle(1, { periodMs: 1000 }).process(step);
    });
    await context.start();
    const first = context.request("direct:in", "first");
    const controller = new AbortController();
    const impatient = context.requestExchange("direct:in", { body: "impatient", signal: controller.signal });
    const patient = context.request("direct:in", "patient");
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error("gave up waiting"));
    expect((await impatient).error?.message).toBe("gave up waiting");
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all([first, patient]);
    expect(passed.map((entry) => [entry.body, entry.at])).toEqual([
      ["first", 0],
      ["patient", 1000],
    ]);
  });
});

describe("throttle({ concurrent })", () => {
  it("keeps at most n exchanges in the rest of the route; the others wait in order", async () => {
    vi.useFakeTimers({ now: 0 });
    let inFlight = 0;
    let peak = 0;
    const order: number[] = [];
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .throttle({ concurrent: 2 })
        .process(async (exchange) => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          order.push(exchange.body as number);
          await new Promise((resolve) => setTimeout(resolve, 100));
          inFlight--;
        })
        .setBody("${body} done");
    });
    await context.start();
    const replies = [1, 2, 3, 4, 5].map((body) => context.request("direct:in", body));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual([1, 2, 3, 4]);
    await vi.advanceTimersByTimeAsync(500);
    expect(await Promise.all(replies)).toEqual(["1 done", "2 done", "3 done", "4 done", "5 done"]);
    expect(peak).toBe(2);
  });

  it("gives the permit back when the rest of the route fails", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .throttle({ concurrent: 1, maxQueued: 0 })
        .process((exchange) => {
          if (exchange.body === "bad") throw new Error("bad body");
        });
    });
    await context.start();
    await expect(context.request("direct:in", "bad")).rejects.toThrow("bad body");
    await expect(context.request("direct:in", "good")).resolves.toBe("good");
  });

  it("rejectExecution fails an exchange over the concurrency limit", async () => {
    context = createContext();
    let release: () => void = () => undefined;
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("single")
        .throttle({ concurrent: 1, rejectExecution: true })
        .process(() => new Promise<void>((resolve) => (release = resolve)));
    });
    await context.start();
    const first = context.request("direct:in", 1);
    await expect(context.request("direct:in", 2)).rejects.toThrow(
      "Route 'single': #1 throttle rejected the exchange: 1 exchange(s) already in flight (rejectExecution is on)",
    );
    release();
    await first;
  });
});

describe("throttle arguments", () => {
  it.each([
    [() => [0], "throttle() expects maxRequests as an integer >= 1, or { concurrent: n } (found 0)"],
    [() => ["5"], "throttle() expects maxRequests as an integer >= 1, or { concurrent: n } (found string)"],
    [() => [5, { periodMs: 0 }], "throttle() option 'periodMs' must be a number >= 1 (found number 0)"],
    [() => [5, { period: 100 }], "throttle() has no option 'period' (did you mean periodMs?)"],
    [() => [{ concurrent: 0 }], "throttle() option 'concurrent' must be an integer >= 1 (found number 0)"],
    [() => [{}], "throttle() option 'concurrent' must be an integer >= 1 (found undefined)"],
    [() => [{ concurrent: 2 }, { periodMs: 5 }], "throttle({ concurrent }) takes one argument"],
    [() => [5, { maxQueued: -1 }], "throttle() option 'maxQueued' must be an integer >= 0 (found number -1)"],
    [() => [5, { rejectExecution: "yes" }], "throttle() option 'rejectExecution' must be true or false"],
  ])("%#: bad arguments fail when the route is added", async (args, message) => {
    context = createContext();
    await expect(
      context.addRoutes((r) => {
        (r.from("direct:in").routeId("t").throttle as (...values: unknown[]) => unknown)(...args());
      }),
    ).rejects.toThrow(`Route 't': ${message}`);
  });
});
