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
