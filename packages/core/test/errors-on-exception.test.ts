import { createContext, EXCEPTION_CAUGHT, RouteBuilder, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

class OrderError extends Error {
  override name = "OrderError";
}
class PaymentError extends OrderError {
  override name = "PaymentError";
}
class CardDeclinedError extends PaymentError {
  override name = "CardDeclinedError";
}

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
});

const fail = (error: Error) => () => {
  throw error;
};

describe("onException: handled, continued, neither", () => {
  it("handled: the route stops, the caller gets the body as it was plus what the clause step did, no error", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, { handled: true, step: (s) => s.setHeader("handledBy", "clause") })
        .setBody("${body} checked")
        .process(fail(new OrderError("bad order")))
        .setBody("not reached")
        .to("mock:rest");
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "order" });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("order checked");
    expect(exchange.headers.handledBy).toBe("clause");
    expect(exchange.properties[EXCEPTION_CAUGHT]).toBeInstanceOf(OrderError);
    expect(context.endpoint("mock:rest").receivedCount).toBe(0);
    await expect(context.request("direct:in", "again")).resolves.toBe("again checked");
  });

  it("continued: the error is cleared and the next step runs", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, { continued: true })
        .process(fail(new OrderError("ignored")))
        .setBody("${body} and continued")
        .to("mock:rest");
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "order" });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toBe("order and continued");
    expect(context.endpoint("mock:rest").receivedCount).toBe(1);
  });

  it("neither: the clause step runs, then the error goes back to the caller", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, { step: (s) => s.to("mock:audit") })
        .process(fail(new OrderError("still failing")))
        .to("mock:rest");
    });
    await context.start();
    await expect(context.request("direct:in", "order")).rejects.toThrow("still failing");
    expect(context.endpoint("mock:audit").receivedCount).toBe(1);
    expect(context.endpoint("mock:rest").receivedCount).toBe(0);
  });

  it("handled and continued may be predicates evaluated on the failed exchange", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, {
          handled: "${header.soft} == true",
          continued: (exchange) => exchange.headers.skip,
        })
        .process(fail(new OrderError("predicate")))
        .setBody("after");
    });
    await context.start();
    expect((await context.requestExchange("direct:in", { body: "b", headers: { soft: true } })).body).toBe(
      "b",
    );
    expect((await context.requestExchange("direct:in", { body: "b", headers: { skip: true } })).body).toBe(
      "after",
    );
    await expect(context.request("direct:in", "b")).rejects.toThrow("predicate");
  });

  it("the clause step sees the error as ${exception.message} and the original error class", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(PaymentError, {
          handled: true,
          step: (s) => s.setBody("failed: ${exception.message}").setHeader("type", "${exception.name}"),
        })
        .process(fail(new CardDeclinedError("card 42 declined")));
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "pay" });
    expect(exchange.body).toBe("failed: card 42 declined");
    expect(exchange.headers.type).toBe("CardDeclinedError");
  });

  it("useOriginalMessage gives the clause step the message as the route received it", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, {
          handled: true,
          useOriginalMessage: true,
          step: (s) => s.to("mock:original"),
        })
        .setBody("changed")
        .setHeader("added", "yes")
        .process(fail(new OrderError("x")));
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "first", headers: { h: 1 } });
    const received = context.endpoint("mock:original").received[0]!;
    expect(received.body).toBe("first");
    // The original headers, plus the failure's details (never the headers added on the way).
    expect(received.headers).toEqual({
      h: 1,
      "routekit.exception": "OrderError: x",
      "routekit.failedRouteId": expect.any(String),
      "routekit.failedStep": expect.stringMatching(/process/),
    });
    expect(exchange.body).toBe("first");
  });

  it("onWhen narrows a clause to errors matching a predicate", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, { handled: true, onWhen: "${exception.message} contains 'soft'" })
        .process((exchange) => {
          throw new OrderError(String(exchange.body));
        });
    });
    await context.start();
    await expect(context.request("direct:in", "soft failure")).resolves.toBe("soft failure");
    await expect(context.request("direct:in", "hard failure")).rejects.toThrow("hard failure");
  });
});

describe("onException: which clause matches", () => {
  it("the most specific error class wins, whatever the declaration order", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, { handled: true, step: (s) => s.setBody("Error") })
        .onException(OrderError, { handled: true, step: (s) => s.setBody("OrderError") })
        .onException(PaymentError, { handled: true, step: (s) => s.setBody("PaymentError") })
        .process((exchange) => {
          const kind = exchange.body;
          if (kind === "card") throw new CardDeclinedError("declined");
          if (kind === "order") throw new OrderError("order");
          throw new TypeError("type");
        });
    });
    await context.start();
    expect(await context.request("direct:in", "card")).toBe("PaymentError");
    expect(await context.request("direct:in", "order")).toBe("OrderError");
    expect(await context.request("direct:in", "other")).toBe("Error");
  });

  it("a clause may list several classes", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException([TypeError, RangeError], { handled: true, step: (s) => s.setBody("listed") })
        .process((exchange) => {
          throw exchange.body === "type" ? new TypeError("t") : new RangeError("r");
        });
    });
    await context.start();
    expect(await context.request("direct:in", "type")).toBe("listed");
    expect(await context.request("direct:in", "range")).toBe("listed");
  });

  it("route-local clauses are tried before builder-wide ones, even less specific ones", async () => {
    class Routes extends RouteBuilder {
      override configure(): void {
        this.onException(CardDeclinedError, { handled: true, step: (s) => s.setBody("builder") });
        this.from("direct:local")
          .onException(OrderError, { handled: true, step: (s) => s.setBody("route") })
          .process(fail(new CardDeclinedError("x")));
        this.from("direct:other").process(fail(new CardDeclinedError("x")));
      }
    }
    context = createContext();
    await context.addRoutes(new Routes());
    await context.start();
    expect(await context.request("direct:local", "in")).toBe("route");
    expect(await context.request("direct:other", "in")).toBe("builder");
  });

  it("an error no clause matches falls through to the builder-wide clauses, then to the caller", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.onException(RangeError, { handled: true, step: (s) => s.setBody("builder range") });
      r.from("direct:in")
        .onException(TypeError, { handled: true, step: (s) => s.setBody("route type") })
        .process((exchange) => {
          if (exchange.body === "range") throw new RangeError("r");
          if (exchange.body === "type") throw new TypeError("t");
          throw new SyntaxError("s");
        });
    });
    await context.start();
    expect(await context.request("direct:in", "range")).toBe("builder range");
    expect(await context.request("direct:in", "type")).toBe("route type");
    await expect(context.request("direct:in", "syntax")).rejects.toThrow("s");
  });

  it("builder-wide clauses apply to every route of that builder only", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.onException(Error, { handled: true });
      r.from("direct:a").process(fail(new Error("a")));
    });
    await context.addRoutes((r) => {
      r.from("direct:b").process(fail(new Error("b")));
    });
    await context.start();
    await expect(context.request("direct:a", "a")).resolves.toBe("a");
    await expect(context.request("direct:b", "b")).rejects.toThrow("b");
  });
});

describe("errors inside onException steps", () => {
  it("propagate to the caller and are not handled again by the route's clauses", async () => {
    let clauseRuns = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, {
          handled: true,
          maximumRedeliveries: 2,
          redeliveryDelay: 0,
          step: (s) =>
            s.process(() => {
              clauseRuns++;
              throw new RangeError("the clause failed too");
            }),
        })
        .process(fail(new TypeError("first")));
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "x" });
    expect(exchange.error).toBeInstanceOf(RangeError);
    expect(exchange.error?.message).toBe("the clause failed too");
    expect(clauseRuns).toBe(1);
    await expect(context.request("direct:in", "x")).rejects.toThrow(
      /step onException\[route 0\] > #1 process/,
    );
  });

  it("an async error in a clause step propagates too", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, {
          continued: true,
          step: (s) =>
            s.process(async () => {
              await Promise.resolve();
              throw new Error("async clause failure");
            }),
        })
        .process(fail(new Error("first")))
        .to("mock:rest");
    });
    await context.start();
    await expect(context.request("direct:in", "x")).rejects.toThrow("async clause failure");
    expect(context.endpoint("mock:rest").receivedCount).toBe(0);
  });
});

describe("asynchronous steps", () => {
  it("handles a rejected promise like a thrown error", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(OrderError, { handled: true, step: (s) => s.setBody("handled ${exception.message}") })
        .process(async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw new OrderError("late");
        });
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("handled late");
  });

  it("handles a non-Error thrown value as an Error", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, { handled: true, step: (s) => s.setBody("${exception.message}") })
        .process(() => {
          throw "a plain string";
        });
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("a plain string");
  });
});
