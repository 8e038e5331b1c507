import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

class PartError extends Error {
  override name = "PartError";
}

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

const collect = (previous: Exchange | undefined, part: Exchange): Exchange => {
  if (previous === undefined) {
    part.body = [part.body];
    return part;
  }
  (previous.body as unknown[]).push(part.body);
  return previous;
};

const failOn = (bad: string) => (exchange: Exchange) => {
  if (exchange.body === bad) throw new PartError(`part ${bad} failed`);
};

describe("errors inside split parts meet the route's error handling", () => {
  it("a handled error stops only its part; the other parts and the route go on", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PartError, { handled: true, step: (s) => s.setBody("${body}!") })
        .split("${body}", (part) => part.process(failOn("b")).setBody("${body} ok"), { aggregate: collect })
        .to("mock:after");
    });
    await context.start();
    expect(await context.request("direct:in", ["a", "b", "c"])).toEqual(["a ok", "b!", "c ok"]);
    expect(context.endpoint("mock:after").receivedCount).toBe(1);
  });

  it("continued resumes the failed part at its next step", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PartError, { continued: true })
        .split("${body}", (part) => part.process(failOn("b")).setBody("${body} done"), {
          aggregate: collect,
        });
    });
    await context.start();
    expect(await context.request("direct:in", ["a", "b"])).toEqual(["a done", "b done"]);
  });

  it("redelivery re-runs the failing step of the failing part only", async () => {
    vi.useFakeTimers({ now: 0 });
    const seen: string[] = [];
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PartError, { maximumRedeliveries: 2, redeliveryDelay: 10 })
        .split("${body}", (part) =>
          part
            .process((exchange) => {
              seen.push(String(exchange.body));
            })
            .process(failOn("b")),
        );
    });
    await context.start();
    const reply = context.requestExchange("direct:in", { body: ["a", "b", "c"] });
    await vi.advanceTimersByTimeAsync(1000);
    const exchange = await reply;
    expect(exchange.error).toBeInstanceOf(PartError);
    // Each part's first step ran once; the split as a whole was not redelivered.
    expect(seen).toEqual(["a", "b", "c"]);
  });

  it("an unhandled part error is handled once, in the part, not again at the split step", async () => {
    vi.useFakeTimers({ now: 0 });
    let attempts = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PartError, {
          maximumRedeliveries: 2,
          redeliveryDelay: 10,
          step: (s) => s.to("mock:audit"),
        })
        .split("${body}", (part) =>
          part.process((exchange) => {
            if (exchange.body === "b") {
              attempts++;
              throw new PartError("b keeps failing");
            }
          }),
        )
        .to("mock:after");
    });
    await context.start();
    const reply = context.requestExchange("direct:in", { body: ["a", "b", "c"] });
    await vi.advanceTimersByTimeAsync(1000);
    const exchange = await reply;
    expect(exchange.error?.message).toBe("b keeps failing");
    expect(attempts).toBe(3);
    expect(context.endpoint("mock:audit").receivedCount).toBe(1);
    expect(context.endpoint("mock:after").receivedCount).toBe(0);
  });
});

describe("split inside a doTry", () => {
  it("a failing part reaches the doTry's catch: the route's onException does not apply inside the doTry", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PartError, { handled: true, step: (s) => s.setBody("route clause") })
        .doTry((t) => t.split("${body}", (part) => part.process(failOn("b"))), {
          catch: [[PartError, (c) => c.setBody("caught ${exception.message}")]],
        });
    });
    await context.start();
    expect(await context.request("direct:in", ["a", "b"])).toBe("caught part b failed");
  });
});
