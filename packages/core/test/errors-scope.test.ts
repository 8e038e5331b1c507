import { createContext, type RouteContext, RouteStepError } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

class LookupError extends Error {
  override name = "LookupError";
}

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

const failing = () => {
  throw new LookupError("customer not found");
};

describe("error handling across direct: sub-routes", () => {
  it("a sub-route that handles its own error: the caller never sees it and continues", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, { handled: true, step: (s) => s.setBody("caller clause") })
        .to("direct:lookup")
        .setBody("${body} + caller continued");
      r.from("direct:lookup")
        .onException(LookupError, { handled: true, step: (s) => s.setBody("lookup fallback") })
        .process(failing)
        .setBody("not reached");
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("lookup fallback + caller continued");
  });

  it("a sub-route with continued resumes inside the sub-route, and the caller continues", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:lookup").setBody("${body} + caller");
      r.from("direct:lookup")
        .onException(LookupError, { continued: true })
        .process(failing)
        .setBody("${body} + lookup");
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("in + lookup + caller");
  });

  it("a sub-route that dead-letters: the caller continues without the error", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:lookup").setBody("${body} + caller");
      r.from("direct:lookup")
        .errorHandler({ deadLetterUri: "mock:dead" })
        .setBody("${body} + lookup")
        .process(failing);
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("in + lookup + caller");
    expect(context.endpoint("mock:dead").received[0]?.headers["routekit.failedRouteId"]).toBe("route2");
  });

  it("a sub-route without a handler: the caller's clause decides (handled stops the caller)", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, {
          handled: true,
          step: (s) => s.setBody("caller handled: ${exception.message}"),
        })
        .to("direct:lookup")
        .setBody("not reached");
    });
    await context.addRoutes((r) => {
      r.from("direct:lookup").process(failing).setBody("not reached either");
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("caller handled: customer not found");
  });

  it("a sub-route without a handler and a continued caller clause: the caller's next step runs", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, { continued: true })
        .to("direct:lookup")
        .setBody("${body} + caller");
    });
    await context.addRoutes((r) => {
      r.from("direct:lookup").setBody("${body} + lookup").process(failing).setBody("not reached");
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("in + lookup + caller");
  });

  it("a sub-route clause that does not handle: both routes' clauses run, then the error reaches the caller's caller", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .routeId("caller")
        .onException(LookupError, { step: (s) => s.to("mock:caller-audit") })
        .to("direct:lookup");
      r.from("direct:lookup")
        .routeId("lookup")
        .onException(LookupError, { step: (s) => s.to("mock:lookup-audit") })
        .process(failing, "find");
    });
    await context.start();
    const error = await context.request("direct:caller", "in").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RouteStepError);
    // The error names where it was raised, not where it passed through.
    expect((error as RouteStepError).routeId).toBe("lookup");
    expect((error as RouteStepError).step).toBe("#1 process(find)");
    expect(context.endpoint("mock:lookup-audit").receivedCount).toBe(1);
    expect(context.endpoint("mock:caller-audit").receivedCount).toBe(1);
  });

  it("redelivery happens only in the route where the error was raised", async () => {
    vi.useFakeTimers({ now: 0 });
    let attempts = 0;
    let calls = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, { maximumRedeliveries: 5, redeliveryDelay: 10 })
        .process(() => {
          calls++;
        })
        .to("direct:lookup");
      r.from("direct:lookup")
        .onException(LookupError, { maximumRedeliveries: 2, redeliveryDelay: 10 })
        .process(() => {
          attempts++;
          throw new LookupError(`attempt ${attempts}`);
        });
    });
    await context.start();
    const reply = context.requestExchange("direct:caller", { body: "in" });
    await vi.advanceTimersByTimeAsync(1000);
    const exchange = await reply;
    expect(exchange.error?.message).toBe("attempt 3");
    expect(attempts).toBe(3);
    expect(calls).toBe(1);
  });

  it("a caller's redelivery policy does not re-run a sub-route that gave up without a handler", async () => {
    vi.useFakeTimers({ now: 0 });
    let attempts = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, { maximumRedeliveries: 3, redeliveryDelay: 10 })
        .to("direct:lookup");
    });
    await context.addRoutes((r) => {
      r.from("direct:lookup").process(() => {
        attempts++;
        throw new LookupError("no handler here");
      });
    });
    await context.start();
    const reply = context.requestExchange("direct:caller");
    await vi.advanceTimersByTimeAsync(1000);
    expect((await reply).error?.message).toBe("no handler here");
    expect(attempts).toBe(1);
  });

  it("builder-wide clauses give every route of the builder its own handling, so each redelivers its own steps", async () => {
    vi.useFakeTimers({ now: 0 });
    let attempts = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.onException(LookupError, { maximumRedeliveries: 2, redeliveryDelay: 10, handled: true });
      r.from("direct:caller").to("direct:lookup").setBody("${body} + caller");
      r.from("direct:lookup").process(() => {
        attempts++;
        throw new LookupError("always");
      });
    });
    await context.start();
    const reply = context.requestExchange("direct:caller", { body: "in" });
    await vi.advanceTimersByTimeAsync(1000);
    const exchange = await reply;
    expect(attempts).toBe(3);
    // Handled in the sub-route: the caller continues.
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("in + caller");
  });

  it("an InOut seda: call reports the consumer route's unhandled error to the waiting caller", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller")
        .onException(LookupError, {
          handled: true,
          step: (s) => s.setBody("caller saw ${exception.message}"),
        })
        .to("seda:lookup");
      r.from("seda:lookup").process(failing);
    });
    await context.start();
    expect(await context.request("direct:caller", "in")).toBe("caller saw customer not found");
  });
});
