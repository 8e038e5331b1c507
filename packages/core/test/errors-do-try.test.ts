import { createContext, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";

class NetworkError extends Error {
  override name = "NetworkError";
}
class TimeoutError extends NetworkError {
  override name = "TimeoutError";
}

let context: RouteContext;
afterEach(async () => {
  vi.useRealTimers();
  await context?.stop({ timeoutMs: 1000 });
});

const thrower = (error: Error) => () => {
  throw error;
};

describe("doTry", () => {
  it("a caught error runs its catch block and the route continues after the doTry", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .doTry(
          (t) =>
            t
              .setBody("trying")
              .process(thrower(new NetworkError("offline")))
              .setBody("not reached"),
          {
            catch: [[NetworkError, (c) => c.setBody("caught ${exception.message} at ${body}")]],
          },
        )
        .setBody("${body}, then on");
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("caught offline at trying, then on");
  });

  it("catch clauses are tried in order and the first instanceof match wins (like try/catch)", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").doTry((t) => t.process(thrower(new TimeoutError("slow"))), {
        catch: [
          [NetworkError, (c) => c.setBody("network")],
          [TimeoutError, (c) => c.setBody("timeout")],
        ],
      });
      r.from("direct:specific-first").doTry((t) => t.process(thrower(new TimeoutError("slow"))), {
        catch: [
          [TimeoutError, (c) => c.setBody("timeout")],
          [NetworkError, (c) => c.setBody("network")],
        ],
      });
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("network");
    expect(await context.request("direct:specific-first", "x")).toBe("timeout");
  });

  it("a catch clause may list several classes", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").doTry(
        (t) =>
          t.process((exchange) => {
            throw exchange.body === "range" ? new RangeError("r") : new TypeError("t");
          }),
        { catch: [[[TypeError, RangeError], (c) => c.setBody("either ${exception.name}")]] },
      );
    });
    await context.start();
    expect(await context.request("direct:in", "range")).toBe("either RangeError");
    expect(await context.request("direct:in", "type")).toBe("either TypeError");
  });

  it("finally always runs: after success, after a caught error, and before an uncaught error propagates", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .doTry(
          (t) =>
            t.process((exchange) => {
              if (exchange.body === "network") throw new NetworkError("n");
              if (exchange.body === "other") throw new SyntaxError("uncaught one");
            }),
          {
            catch: [[NetworkError, (c) => c.setBody("caught")]],
            finally: (f) => f.to("mock:finally"),
          },
        )
        .to("mock:after");
    });
    await context.start();
    expect(await context.request("direct:in", "fine")).toBe("fine");
    expect(await context.request("direct:in", "network")).toBe("caught");
    await expect(context.request("direct:in", "other")).rejects.toThrow("uncaught one");
    expect(context.endpoint("mock:finally").receivedBodies).toEqual(["fine", "caught", "other"]);
    expect(context.endpoint("mock:after").receivedBodies).toEqual(["fine", "caught"]);
  });

  it("finally sees a pending error as ${exception} and the error is restored after it", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").doTry((t) => t.process(thrower(new SyntaxError("pending"))), {
        finally: (f) => f.setHeader("seen", "${exception.message}").to("mock:finally"),
      });
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "x" });
    expect(exchange.error?.message).toBe("pending");
    expect(context.endpoint("mock:finally").received[0]?.headers.seen).toBe("pending");
  });

  it("an error thrown inside finally replaces the original one and propagates", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .routeId("tries")
        .doTry((t) => t.process(thrower(new SyntaxError("original"))), {
          finally: (f) => f.process(thrower(new RangeError("from finally")), "cleanup"),
        })
        .to("mock:after");
      r.from("direct:success").doTry((t) => t.setBody("ok"), {
        finally: (f) => f.process(thrower(new RangeError("finally after success"))),
      });
    });
    await context.start();
    const exchange = await context.requestExchange("direct:in", { body: "x" });
    expect(exchange.error).toBeInstanceOf(RangeError);
    expect(exchange.error?.message).toBe("from finally");
    await expect(context.request("direct:in", "x")).rejects.toThrow(
      "Route 'tries' failed at step #1 doTry finally > #1 process(cleanup): RangeError: from finally",
    );
    await expect(context.request("direct:success", "x")).rejects.toThrow("finally after success");
    expect(context.endpoint("mock:after").receivedCount).toBe(0);
  });

  it("an error thrown inside a catch block propagates after finally ran", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").doTry((t) => t.process(thrower(new NetworkError("first"))), {
        catch: [[NetworkError, (c) => c.process(thrower(new TypeError("catch failed")))]],
        finally: (f) => f.to("mock:finally"),
      });
    });
    await context.start();
    await expect(context.request("direct:in", "x")).rejects.toThrow("catch failed");
    expect(context.endpoint("mock:finally").receivedCount).toBe(1);
  });

  it("a caught error never reaches the route's onException, and nothing is redelivered inside the doTry", async () => {
    let attempts = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(Error, {
          maximumRedeliveries: 3,
          redeliveryDelay: 0,
          handled: true,
          step: (s) => s.to("mock:on-exception"),
        })
        .doTry(
          (t) =>
            t.process(() => {
              attempts++;
              throw new NetworkError("caught here");
            }),
          { catch: [[NetworkError, (c) => c.setBody("caught")]] },
        );
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("caught");
    expect(attempts).toBe(1);
    expect(context.endpoint("mock:on-exception").receivedCount).toBe(0);
  });

  it("an uncaught error leaves the doTry and meets the route's error handling at the doTry step", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .onException(SyntaxError, {
          handled: true,
          step: (s) => s.setBody("route clause: ${exception.message}"),
        })
        .doTry((t) => t.process(thrower(new SyntaxError("not a network error"))), {
          catch: [[NetworkError, (c) => c.setBody("caught")]],
          finally: (f) => f.to("mock:finally"),
        });
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("route clause: not a network error");
    expect(context.endpoint("mock:finally").receivedCount).toBe(1);
  });

  it("a sub-route called inside the try block keeps its own error handling", async () => {
    vi.useFakeTimers({ now: 0 });
    let attempts = 0;
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in").doTry((t) => t.to("direct:sub"), {
        catch: [
          [
            NetworkError,
            (c) => c.setBody("caught after ${header['routekit.redeliveryCounter']} redeliveries"),
          ],
        ],
      });
      r.from("direct:sub")
        .onException(NetworkError, { maximumRedeliveries: 2, redeliveryDelay: 5 })
        .process(() => {
          attempts++;
          throw new NetworkError("sub failed");
        });
    });
    await context.start();
    const reply = context.request("direct:in", "x");
    await vi.advanceTimersByTimeAsync(100);
    expect(await reply).toBe("caught after 2 redeliveries");
    expect(attempts).toBe(3);
  });

  it("asynchronous try, catch and finally blocks run in order", async () => {
    const order: string[] = [];
    const later = (name: string, error?: Error) => async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      order.push(name);
      if (error !== undefined) throw error;
    };
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .doTry((t) => t.process(later("try", new NetworkError("n"))), {
          catch: [[NetworkError, (c) => c.process(later("catch"))]],
          finally: (f) => f.process(later("finally")),
        })
        .process(later("after"));
    });
    await context.start();
    await context.request("direct:in", "x");
    expect(order).toEqual(["try", "catch", "finally", "after"]);
  });

  it("stop() inside the try block still runs finally, then stops the route", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:in")
        .doTry((t) => t.setBody("stopped").stop().setBody("not reached"), {
          finally: (f) => f.to("mock:finally"),
        })
        .setBody("not reached either");
    });
    await context.start();
    expect(await context.request("direct:in", "x")).toBe("stopped");
    expect(context.endpoint("mock:finally").receivedCount).toBe(1);
  });

  it("bad arguments fail when the route is added, naming the route and what was wrong", async () => {
    context = createContext();
    const add = (configure: (route: import("@routekit/core").RouteDsl) => unknown) =>
      context.addRoutes((r) => {
        configure(r.from("direct:bad").routeId("bad"));
      });
    await expect(add((route) => route.doTry((t) => t, {}))).rejects.toThrow(
      "Route 'bad': doTry() needs at least one catch clause or a finally block",
    );
    await expect(
      add((route) => route.doTry((t) => t, { catch: [[class NotAnError {} as never, (c) => c]] })),
    ).rejects.toThrow(/Route 'bad': doTry\(\) catch\[0\] must be a pair \[ErrorClass/);
    await expect(add((route) => route.doTry("nope" as never, { finally: (f) => f }))).rejects.toThrow(
      /Route 'bad': doTry\(\) expects the try block as a callback.*found string/,
    );
    await expect(
      add((route) => route.doTry((t) => t, { finaly: (f: unknown) => f } as never)),
    ).rejects.toThrow(
      "Route 'bad': doTry() has no option 'finaly' (did you mean finally?); options: catch, finally",
    );
    await expect(add((route) => route.doTry((t) => t, { catch: "x" as never }))).rejects.toBeInstanceOf(
      RoutekitError,
    );
  });
});
