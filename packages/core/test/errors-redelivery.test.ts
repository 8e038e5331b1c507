import { createContext, REDELIVERY_COUNTER, type RouteContext, RouteStepError } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

class TransientError extends Error {
  override name = "TransientError";
}

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

/** A step that fails `failures` times, recording when each attempt started and the counter it saw. */
function flaky(failures: number) {
  const attempts: Array<{ at: number; counter: unknown }> = [];
  const step = (exchange: { headers: Record<string, unknown> }) => {
    attempts.push({ at: Date.now(), counter: exchange.headers[REDELIVERY_COUNTER] });
    if (attempts.length <= failures) throw new TransientError(`attempt ${attempts.length} failed`);
  };
  return { attempts, step };
}

describe("redelivery", () => {
  it("redelivers at the failing step with exponential backoff: attempts at 0, 100, 300, 700 ms", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(10);
    const before = vi.fn();
    context = createContext();
    await context.addRoutes((r) => {
      r.onException(TransientError, { maximumRedeliveries: 3, redeliveryDelay: 100, backOffMultiplier: 2 });
      r.from("direct:in").routeId("retrying").process(before).process(step, "flaky").to("mock:after");
    });
    await context.start();
    const reply = context.requestExchange("direct:in", { body: "x" });
    await vi.advanceTimersByTimeAsync(699);
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 100, 300]);
    await vi.advanceTimersByTimeAsync(1);
    const exchange = await reply;
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 100, 300, 700]);
    expect(attempts.map((attempt) => attempt.counter)).toEqual([undefined, 1, 2, 3]);
    // Only the failing step is redelivered, never the steps before it.
    expect(before).toHaveBeenCalledTimes(1);
    expect(exchange.error).toBeInstanceOf(TransientError);
    expect(exchange.error?.message).toBe("attempt 4 failed");
    expect(context.endpoint("mock:after").receivedCount).toBe(0);
  });

  it("succeeds when a redelivery succeeds, and the rest of the route runs once", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(2);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: 5, redeliveryDelay: 10 })
        .process(step)
        .setBody("done")
        .to("mock:after");
    });
    await context.start();
    const reply = context.requestExchange("direct:in", { body: "x" });
    await vi.advanceTimersByTimeAsync(100);
    const exchange = await reply;
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("done");
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 10, 20]);
    expect(exchange.headers[REDELIVERY_COUNTER]).toBe(2);
    expect(context.endpoint("mock:after").receivedCount).toBe(1);
  });

  it("caps each delay at maximumRedeliveryDelay", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(10);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, {
          maximumRedeliveries: 5,
          redeliveryDelay: 100,
          backOffMultiplier: 3,
          maximumRedeliveryDelay: 500,
        })
        .process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(10_000);
    await reply;
    // delays 100, 300, 500 (900 capped), 500, 500
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 100, 400, 900, 1400, 1900]);
  });

  it("uses a fixed delay when no multiplier is given", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(10);
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ maximumRedeliveries: 2, redeliveryDelay: 250 });
      r.from("direct:in").process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(1000);
    expect((await reply).error).toBeInstanceOf(TransientError);
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 250, 500]);
  });

  it("useExponentialBackOff doubles the delay when no multiplier is given", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(10);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, { maximumRedeliveries: 3, redeliveryDelay: 10, useExponentialBackOff: true })
        .process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(1000);
    await reply;
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 10, 30, 70]);
  });

  it("keeps redelivering while retryWhile holds", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(100);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, {
          retryWhile: "${header['routekit.redeliveryCounter'] ?? 0} < 4",
          redeliveryDelay: 1,
        })
        .process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(100);
    expect((await reply).error).toBeInstanceOf(TransientError);
    expect(attempts).toHaveLength(5);
  });

  it("retryWhile and maximumRedeliveries together: both must allow another attempt", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(100);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: 2, retryWhile: () => true, redeliveryDelay: 1 })
        .process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(100);
    await reply;
    expect(attempts).toHaveLength(3);
  });

  it("retryWhile sees the error as ${exception}", async () => {
    vi.useFakeTimers({ now: 0 });
    let calls = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, { retryWhile: "${exception.message} == 'again'", redeliveryDelay: 1 })
        .process(() => {
          calls++;
          throw new Error(calls < 3 ? "again" : "final");
        });
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(100);
    expect((await reply).error?.message).toBe("final");
    expect(calls).toBe(3);
  });

  it("-1 redelivers forever until the exchange is aborted, then fails with the abort reason", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(Number.POSITIVE_INFINITY);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: -1, redeliveryDelay: 1000 })
        .process(step);
    });
    await context.start();
    const controller = new AbortController();
    const reply = context.requestExchange("direct:in", { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts.length).toBe(61);
    controller.abort(new Error("caller gave up"));
    const exchange = await reply;
    expect(exchange.error?.message).toBe("caller gave up");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(attempts.length).toBe(61);
  });

  it("emits exchange-redelivered with the attempt and the delay", async () => {
    vi.useFakeTimers({ now: 0 });
    const { step } = flaky(2);
    context = createContext();
    const events: Array<{ attempt: number; delayMs: number; message: string }> = [];
    context.events.on("exchange-redelivered", (event) =>
      events.push({ attempt: event.attempt, delayMs: event.delayMs, message: event.error.message }),
    );
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: 3, redeliveryDelay: 50, backOffMultiplier: 2 })
        .process(step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(1000);
    await reply;
    expect(events).toEqual([
      { attempt: 1, delayMs: 50, message: "attempt 1 failed" },
      { attempt: 2, delayMs: 100, message: "attempt 2 failed" },
    ]);
  });

  it("an onException clause inherits the error handler's redelivery options it does not set", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(100);
    context = createContext();
    await context.addRoutes((r) => {
      r.errorHandler({ maximumRedeliveries: 2, redeliveryDelay: 40 });
      r.onException(TransientError, { handled: true, redeliveryDelay: 5 });
      r.from("direct:in").process(step).setBody("not reached");
    });
    await context.start();
    const reply = context.requestExchange("direct:in", { body: "in" });
    await vi.advanceTimersByTimeAsync(1000);
    const exchange = await reply;
    expect(attempts.map((attempt) => attempt.at)).toEqual([0, 5, 10]);
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("in");
  });

  it("counts redeliveries per failing step: a later failing step starts again from one", async () => {
    vi.useFakeTimers({ now: 0 });
    const first = flaky(1);
    const second = flaky(2);
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: 2, redeliveryDelay: 10 })
        .process(first.step)
        .process(second.step);
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(1000);
    expect((await reply).error).toBeUndefined();
    expect(first.attempts.map((attempt) => attempt.counter)).toEqual([undefined, 1]);
    expect(second.attempts.map((attempt) => attempt.counter)).toEqual([1, 1, 2]);
  });

  it("an error leaving a doTry (here from its finally block) is redelivered at the doTry step", async () => {
    vi.useFakeTimers({ now: 0 });
    const { attempts, step } = flaky(1);
    const outer = vi.fn();
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(TransientError, { maximumRedeliveries: 1, redeliveryDelay: 10 })
        .process(outer)
        .doTry((t) => t.setBody("tried"), { finally: (f) => f.process(step) });
    });
    await context.start();
    const reply = context.requestExchange("direct:in");
    await vi.advanceTimersByTimeAsync(100);
    // The finally block fails once; the error leaves the doTry, whose step is redelivered.
    expect((await reply).error).toBeUndefined();
    expect(attempts).toHaveLength(2);
    expect(outer).toHaveBeenCalledTimes(1);
  });

  it("request() rejects with a RouteStepError naming the route and the failing step", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("named")
        .onException(TransientError, { maximumRedeliveries: 1, redeliveryDelay: 0 })
        .setBody("x")
        .process(() => {
          throw new TransientError("nope");
        }, "explode");
    });
    await context.start();
    const error = await context.request("direct:in").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RouteStepError);
    expect((error as RouteStepError).routeId).toBe("named");
    expect((error as RouteStepError).step).toBe("#2 process(explode)");
    expect((error as RouteStepError).cause).toBeInstanceOf(TransientError);
  });
});
