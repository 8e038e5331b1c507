import { createContext } from "@routekit/core";
import { createDeadline } from "@routekit/core/internal";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
});

describe("createDeadline", () => {
  it("fires at the deadline with a TimeoutError and says so", async () => {
    vi.useFakeTimers();
    const deadline = createDeadline(100);
    await vi.advanceTimersByTimeAsync(99);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("follows its parents, and a parent abort is not a timeout", () => {
    const parent = new AbortController();
    const deadline = createDeadline(10_000, undefined, parent.signal);
    parent.abort(new Error("caller gave up"));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(false);
    expect((deadline.signal.reason as Error).message).toBe("caller gave up");
    const late = createDeadline(10_000, parent.signal);
    expect(late.signal.aborted).toBe(true);
  });

  it("clear() cancels the timer and stops following the parents", async () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const deadline = createDeadline(50, parent.signal);
    deadline.clear();
    await vi.advanceTimersByTimeAsync(100);
    parent.abort();
    expect(deadline.signal.aborted).toBe(false);
  });

  it("bounds an exchange: requestExchange({ timeoutMs }) aborts the route's signal", async () => {
    const context = createContext();
    let reason: unknown;
    await context.addRoutes((r) =>
      r.from("direct:slow").process(
        (exchange) =>
          new Promise<void>((resolve) => {
            exchange.signal.addEventListener("abort", () => {
              reason = exchange.signal.reason;
              resolve();
            });
          }),
      ),
    );
    await context.start();
    await context.requestExchange("direct:slow", { body: 1, timeoutMs: 30 });
    expect((reason as DOMException).name).toBe("TimeoutError");
    await context.stop();
  });
});

describe("exchange deadlines of one duration share a timer", () => {
  /** A route that waits until its exchange's signal fires and records when, by body. */
  async function waitingContext(firedAt: Map<number, number>) {
    const context = createContext({ logLevel: "off" });
    await context.addRoutes((r) =>
      r.from<number>("direct:wait").process(
        (exchange) =>
          new Promise<void>((resolve) => {
            if (exchange.body < 0) return resolve();
            exchange.signal.addEventListener("abort", () => {
              firedAt.set(exchange.body, performance.now());
              resolve();
            });
          }),
      ),
    );
    await context.start();
    return context;
  }

  it("each exchange times out at its own deadline, released ones never", async () => {
    const firedAt = new Map<number, number>();
    const context = await waitingContext(firedAt);
    const started = performance.now();
    const slow = [0, 1, 2].map((body) => context.requestExchange("direct:wait", { body, timeoutMs: 40 }));
    // Released at once, between and after the slow ones: they leave the queue without firing.
    await context.requestExchange("direct:wait", { body: -1, timeoutMs: 40 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = context.requestExchange("direct:wait", { body: 3, timeoutMs: 40 });
    const laterStarted = performance.now();
    await Promise.all([...slow, later]);
    expect([...firedAt.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const body of [0, 1, 2]) expect(firedAt.get(body)! - started).toBeGreaterThanOrEqual(39);
    expect(firedAt.get(3)! - laterStarted).toBeGreaterThanOrEqual(39);
    await context.stop();
  });

  it("with fake timers, advancing past the deadline fires it", async () => {
    vi.useFakeTimers();
    const firedAt = new Map<number, number>();
    const context = await waitingContext(firedAt);
    const pending = context.requestExchange("direct:wait", { body: 7, timeoutMs: 30 });
    await vi.advanceTimersByTimeAsync(29);
    expect(firedAt.has(7)).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    await pending;
    expect(firedAt.has(7)).toBe(true);
    await context.stop();
  });

  it("more durations than the queues hold still time out, each at its own deadline", async () => {
    const firedAt = new Map<number, number>();
    const context = await waitingContext(firedAt);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 40 }, (_, body) =>
        context.requestExchange("direct:wait", { body, timeoutMs: 20 + body }),
      ),
    );
    expect(firedAt.size).toBe(40);
    for (const [body, at] of firedAt) expect(at - started).toBeGreaterThanOrEqual(20 + body - 1);
    await context.stop();
  });
});
