import {
  createContext,
  EndpointOptionError,
  NoConsumerError,
  RouteBuilder,
  type RouteContext,
  RoutekitError,
  RouteStepError,
} from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("request, requestExchange and send", () => {
  it("runs a route synchronously over direct and returns the reply body", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from<string>("direct:upper")
        .routeId("upper")
        .process((exchange) => {
          exchange.body = exchange.body.toUpperCase();
        })
        .setHeader("seen", (exchange) => exchange.body)
        .to("mock:out");
    });
    await context.start();
    expect(await context.request("direct:upper", "hi")).toBe("HI");
    const exchange = await context.requestExchange("direct:upper", { body: "yo", headers: { a: 1 } });
    expect(exchange.body).toBe("YO");
    expect(exchange.headers).toEqual({ a: 1, seen: "YO" });
    expect(exchange.pattern).toBe("InOut");
    await context.send("direct:upper", "x");
    expect(context.endpoint("mock:out").receivedBodies).toEqual(["HI", "YO", "X"]);
  });

  it("accepts a RouteBuilder class and nested direct calls", async () => {
    class Routes extends RouteBuilder {
      override configure(): void {
        this.from("direct:a")
          .routeId("a")
          .to("direct:b")
          .setBody((exchange) => `a(${String(exchange.body)})`);
        this.from("direct:b")
          .routeId("b")
          .setBody((exchange) => `b(${String(exchange.body)})`);
      }
    }
    context = createContext();
    await context.addRoutes(new Routes());
    await context.start();
    expect(await context.request("direct:a", "x")).toBe("a(b(x))");
    expect(context.routes().map((route) => route.id)).toEqual(["a", "b"]);
  });

  it("adds routes after start and starts them at once", async () => {
    context = createContext();
    await context.start();
    await context.addRoutes((r) => r.from("direct:late").setBody(() => "late"));
    expect(await context.request("direct:late")).toBe("late");
  });

  it("awaits asynchronous steps and keeps order", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:async")
        .process(async (exchange) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          exchange.body = [exchange.body, "one"];
        })
        .setBody(async (exchange) => [...(exchange.body as string[]), "two"])
        .process((exchange) => {
          (exchange.body as string[]).push("three");
        }),
    );
    await context.start();
    expect(await context.request("direct:async", "zero")).toEqual(["zero", "one", "two", "three"]);
  });
});

describe("failures name the route and the step", () => {
  it("a step that throws synchronously", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:boom")
        .routeId("boomer")
        .setHeader("x", () => 1)
        .process(() => {
          throw new TypeError("bad thing");
        }, "explode")
        .to("mock:never"),
    );
    await context.start();
    const error = await context.request("direct:boom").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouteStepError);
    expect((error as RouteStepError).routeId).toBe("boomer");
    expect((error as RouteStepError).step).toBe("#2 process(explode)");
    expect((error as RouteStepError).cause).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(
      "Route 'boomer' failed at step #2 process(explode): TypeError: bad thing",
    );
    expect(context.endpoint("mock:never").receivedCount).toBe(0);
  });

  it("a step that rejects, inside a sub-route, keeps the innermost location", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:outer").routeId("outer").to("direct:inner").to("mock:never");
      r.from("direct:inner")
        .routeId("inner")
        .process(async () => {
          throw new RangeError("async failure");
        });
    });
    await context.start();
    const exchange = await context.requestExchange("direct:outer", { body: 1 });
    expect(exchange.error).toBeInstanceOf(RangeError);
    await expect(context.request("direct:outer")).rejects.toMatchObject({
      routeId: "inner",
      step: "#1 process",
    });
    expect(context.endpoint("mock:never").receivedCount).toBe(0);
  });

  it("non-Error throws become errors", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("direct:s").process(() => {
        throw "plain string";
      }),
    );
    await context.start();
    await expect(context.request("direct:s")).rejects.toThrow("plain string");
  });
});

describe("bad input is refused with a clear error", () => {
  it("malformed URIs", async () => {
    context = createContext();
    await expect(context.addRoutes((r) => r.from("no-scheme").to("mock:a"))).rejects.toThrow(/has no scheme/);
    await expect(context.addRoutes((r) => r.from("direct:a").to(""))).rejects.toThrow(
      /to\(\) expects an endpoint URI/,
    );
    await expect(context.addRoutes((r) => r.from("direct:a").to("1bad:x"))).rejects.toThrow(/invalid scheme/);
    await expect(context.addRoutes((r) => r.from("direct:"))).rejects.toThrow(/direct needs a name/);
  });

  it("unknown schemes suggest the nearest", async () => {
    context = createContext();
    await expect(context.addRoutes((r) => r.from("direct:a").to("sedaa:b"))).rejects.toThrow(
      "no component for scheme 'sedaa' (did you mean seda?)",
    );
  });

  it("unknown and ill-typed options name the option, the endpoint and the nearest valid one", async () => {
    context = createContext();
    const unknown = await context
      .addRoutes((r) => r.from("seda:q?sise=5").to("mock:a"))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(EndpointOptionError);
    expect((unknown as EndpointOptionError).option).toBe("sise");
    expect((unknown as Error).message).toContain(
      "Endpoint 'seda:q?sise=5': unknown option 'sise' (did you mean size?)",
    );
    await expect(context.addRoutes((r) => r.from("seda:q?size=many"))).rejects.toThrow(
      "option 'size' expects an integer (found 'many')",
    );
    await expect(context.addRoutes((r) => r.from("seda:q?size=0"))).rejects.toThrow("expects a value >= 1");
    await expect(context.addRoutes((r) => r.from("timer:t?period=1.5"))).rejects.toThrow(
      "expects an integer",
    );
    await expect(context.addRoutes((r) => r.from("direct:a").to("log:x?level=loud"))).rejects.toThrow(
      "option 'level' expects one of trace, debug, info, warn, error, off",
    );
    await expect(context.addRoutes((r) => r.from("direct:a").to("seda:x?blockWhenFull=yes"))).rejects.toThrow(
      "expects true or false",
    );
  });

  it("a bad route adds none of its batch", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => {
        r.from("direct:good").routeId("good").to("mock:a");
        r.from("direct:bad").routeId("bad").to("nope:x");
      }),
    ).rejects.toThrow(/nope/);
    expect(context.routes()).toEqual([]);
  });

  it("no consumer", async () => {
    context = createContext();
    await context.start();
    const error = await context.request("direct:nobody", 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoConsumerError);
    expect((error as NoConsumerError).uri).toBe("direct:nobody");
    expect((error as Error).message).toContain("No consumer on endpoint 'direct:nobody'");
  });

  it("send before start and after stop", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:a").to("mock:a"));
    await expect(context.send("direct:a", 1)).rejects.toThrow(
      "Cannot send to 'direct:a': the context is created (call context.start() first)",
    );
    await context.start();
    await context.stop();
    await expect(context.request("direct:a", 1)).rejects.toThrow("the context is stopped");
  });

  it("duplicate route ids", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:a").routeId("same").to("mock:a"));
    await expect(context.addRoutes((r) => r.from("direct:b").routeId("same").to("mock:b"))).rejects.toThrow(
      "Route id 'same' is already used",
    );
  });

  it("bad DSL arguments", async () => {
    context = createContext();
    await expect(context.addRoutes((r) => r.from("direct:a").process("nope" as never))).rejects.toThrow(
      "process() expects a function",
    );
    await expect(context.addRoutes((r) => r.from("direct:a").routeId(""))).rejects.toThrow(
      "routeId() expects a non-empty string",
    );
    await expect(context.addRoutes((r) => r.from("direct:a").setHeader("", "x"))).rejects.toThrow(
      "setHeader() expects a non-empty name",
    );
    await expect(context.addRoutes((r) => r.from("direct:a").setBody(42 as never))).rejects.toThrow(
      "setBody() expects an expression",
    );
    await expect(
      context.addRoutes((r) =>
        r
          .from("direct:a")
          .routeId("pricing")
          .setHeader("discount", 0.1 as never),
      ),
    ).rejects.toThrow(
      "Route 'pricing': setHeader() expects an expression (a string or a function of the exchange), found number; for a fixed value write constant(0.1)",
    );
    await expect(
      context.addRoutes((r) => r.from("direct:a").setProperty("flags", { vip: true } as never)),
    ).rejects.toThrow('found object; for a fixed value write constant({"vip":true})');
    await expect(
      context.addRoutes((r) => r.from("timer:t").to("mock:a").to("timer:t")),
    ).resolves.toBeUndefined();
    expect(() => context.use({} as never)).toThrow("context.use() expects a plugin");
  });

  it("two routes consuming one direct endpoint", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:one").routeId("first");
      r.from("direct:one").routeId("second");
    });
    await expect(context.start()).rejects.toThrow("route 'first' already does");
  });

  it("unknown route ids suggest the nearest", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:a").routeId("orders"));
    await expect(context.stopRoute("order")).rejects.toThrow(
      "No route with id 'order' (did you mean orders?)",
    );
    expect(new RoutekitError("QUEUE_FULL", "x").code).toBe("QUEUE_FULL");
  });
});

describe("route lifecycle", () => {
  it("stops and starts a route by id", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("direct:a")
        .routeId("a")
        .setBody(() => "ok"),
    );
    await context.start();
    await context.stopRoute("a");
    expect(context.routes()[0]?.state).toBe("stopped");
    await expect(context.request("direct:a")).rejects.toBeInstanceOf(NoConsumerError);
    await context.startRoute("a");
    expect(await context.request("direct:a")).toBe("ok");
    await context.removeRoute("a");
    expect(context.routes()).toEqual([]);
  });

  it("stop() on a fresh context is a no-op and start() twice is harmless", async () => {
    context = createContext();
    await context.stop();
    await context.start();
    await context.start();
    expect(context.state).toBe("started");
  });

  it("filter without a block guards the rest of the route", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from<number>("direct:f")
        .filter((exchange) => exchange.body > 10)
        .setBody((exchange) => exchange.body * 2)
        .to("mock:big"),
    );
    await context.start();
    expect(await context.request("direct:f", 5)).toBe(5);
    expect(await context.request("direct:f", 50)).toBe(100);
    expect(context.endpoint("mock:big").receivedBodies).toEqual([100]);
  });

  it("stop() ends routing for the exchange and its callers", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:stopper").to("mock:after");
      r.from("direct:stopper")
        .setBody(() => "stopped here")
        .stop()
        .to("mock:after");
    });
    await context.start();
    expect(await context.request("direct:caller", 1)).toBe("stopped here");
    expect(context.endpoint("mock:after").receivedCount).toBe(0);
  });

  it("removeHeader, setProperty and toD", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:d")
        .setProperty("target", (exchange) => `mock:${String(exchange.headers.kind)}`)
        .removeHeader("secret")
        .toD((exchange) => String(exchange.properties.target));
    });
    await context.start();
    await context.request("direct:d", "x", { kind: "books", secret: "s" });
    const received = context.endpoint("mock:books").received[0];
    expect(received?.headers).toEqual({ kind: "books" });
    expect(received?.properties.target).toBe("mock:books");
  });
});
