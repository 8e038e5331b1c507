import {
  createContext,
  type Exchange,
  type RouteContext,
  RoutekitError,
  type StepInterceptor,
} from "@routekit/core";
import type { SendFunction } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** What a `wrapSend` saw of one send: the URI, and the exchange's error once the send settled. */
interface SeenSend {
  uri: string;
  settled: boolean;
  error: Error | undefined;
}

/**
 * An interceptor whose `wrapSend` puts `x-sent-by: name` (appended) on each exchange, records the
 * URIs it wrapped and each send's outcome.
 */
function sendRecording(name: string, wrapped: string[] = [], seen: SeenSend[] = []): StepInterceptor {
  return {
    name,
    wrapStep: (_step, next) => next,
    wrapSend(uri, send) {
      wrapped.push(uri);
      return async (exchange: Exchange) => {
        const previous = exchange.headers["x-sent-by"];
        exchange.headers["x-sent-by"] = previous === undefined ? name : `${String(previous)},${name}`;
        const record: SeenSend = { uri, settled: false, error: undefined };
        seen.push(record);
        try {
          await send(exchange);
        } finally {
          record.settled = true;
          record.error = exchange.error;
        }
      };
    },
  };
}

/** Routes that answer with the `x-sent-by` header they received. */
async function startWithEchoRoutes(interceptor: StepInterceptor): Promise<string[]> {
  const received: string[] = [];
  context = createContext({ logLevel: "off" });
  context.addInterceptor(interceptor);
  await context.addRoutes((r) => {
    r.from("direct:echo").setBody((exchange) => exchange.headers["x-sent-by"]);
    r.from("seda:audit").process((exchange) => {
      received.push(String(exchange.headers["x-sent-by"]));
    });
    r.from("direct:fail").process(() => {
      throw new Error("boom in route");
    });
  });
  await context.start();
  return received;
}

describe("wrapSend: sends made through the context", () => {
  it("wraps request, send, requestExchange and producer handles with their URI; the route sees the header", async () => {
    const wrapped: string[] = [];
    const seen: SeenSend[] = [];
    const received = await startWithEchoRoutes(sendRecording("tracer", wrapped, seen));

    expect(await context.request("direct:echo", "a")).toBe("tracer");
    await context.send("seda:audit", "b");
    const exchange = await context.requestExchange("direct:echo", { body: "c" });
    expect(exchange.body).toBe("tracer");
    const producer = context.producer("direct:echo");
    expect(await producer.request("d")).toBe("tracer");
    const audit = context.producer("seda:audit");
    await audit.send("e");
    await expect.poll(() => received).toEqual(["tracer", "tracer"]);

    expect(seen.map((send) => send.uri)).toEqual([
      "direct:echo",
      "seda:audit",
      "direct:echo",
      "direct:echo",
      "seda:audit",
    ]);
    expect(seen.every((send) => send.settled && send.error === undefined)).toBe(true);
    // Computed once per URI (producer handles included), not per message.
    expect(await context.request("direct:echo", "again")).toBe("tracer");
    expect(wrapped).toEqual(["direct:echo", "seda:audit"]);
    expect(seen).toHaveLength(6);
  });

  it("sees a failing route's error, which still reaches the caller", async () => {
    const seen: SeenSend[] = [];
    await startWithEchoRoutes(sendRecording("tracer", [], seen));

    await expect(context.request("direct:fail", "x")).rejects.toThrow("boom in route");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.uri).toBe("direct:fail");
    expect(seen[0]!.settled).toBe(true);
    expect(seen[0]!.error?.message).toBe("boom in route");

    await expect(context.producer("direct:fail").request("y")).rejects.toThrow("boom in route");
    expect(seen[1]!.error?.message).toBe("boom in route");

    const exchange = await context.requestExchange("direct:fail", { body: "z" });
    expect(exchange.error?.message).toBe("boom in route");
    expect(seen[2]!.error?.message).toBe("boom in route");
  });

  it("a wrapper that throws fails the send, and the caller gets its error", async () => {
    context = createContext({ logLevel: "off" });
    context.addInterceptor({
      name: "refuser",
      wrapStep: (_step, next) => next,
      wrapSend: () => () => {
        throw new Error("refused by wrapper");
      },
    });
    await context.addRoutes((r) => r.from("direct:echo").setBody(() => "reply"));
    await context.start();
    await expect(context.request("direct:echo", "a")).rejects.toThrow("refused by wrapper");
    await expect(context.send("direct:echo", "a")).rejects.toThrow("refused by wrapper");
  });

  it("is not called for the to(...) steps of routes", async () => {
    const wrapped: string[] = [];
    const seen: SeenSend[] = [];
    context = createContext({ logLevel: "off" });
    context.addInterceptor(sendRecording("tracer", wrapped, seen));
    await context.addRoutes((r) => {
      r.from("direct:start").to("direct:echo").to("seda:audit");
      r.from("direct:echo").setBody((exchange) => exchange.headers["x-sent-by"] ?? "none");
      r.from("seda:audit").log("audited");
    });
    await context.start();
    // Tagged once, by the request itself: the to(...) steps carry the exchange on untouched.
    expect(await context.request("direct:start", "a")).toBe("tracer");
    expect(wrapped).toEqual(["direct:start"]);
    expect(seen.map((send) => send.uri)).toEqual(["direct:start"]);
  });

  it("composes two interceptors in the order added, the first outermost", async () => {
    const order: string[] = [];
    const tagging = (name: string): StepInterceptor => ({
      name,
      wrapStep: (_step, next) => next,
      wrapSend: (uri, send: SendFunction) => (exchange) => {
        order.push(`${name}:${uri}`);
        const previous = exchange.headers["x-sent-by"];
        exchange.headers["x-sent-by"] = previous === undefined ? name : `${String(previous)},${name}`;
        return send(exchange);
      },
    });
    context = createContext({ logLevel: "off" });
    context.addInterceptor(tagging("first")).addInterceptor(tagging("second"));
    await context.addRoutes((r) =>
      r.from("direct:echo").setBody((exchange) => exchange.headers["x-sent-by"]),
    );
    await context.start();
    expect(await context.request("direct:echo")).toBe("first,second");
    expect(order).toEqual(["first:direct:echo", "second:direct:echo"]);
  });

  it("applies to sends after it is added, not to producer handles made before", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) =>
      r.from("direct:echo").setBody((exchange) => exchange.headers["x-sent-by"] ?? "none"),
    );
    await context.start();
    const early = context.producer("direct:echo");
    expect(await context.request("direct:echo")).toBe("none");
    context.addInterceptor(sendRecording("late"));
    expect(await context.request("direct:echo")).toBe("late");
    expect(await early.request()).toBe("none");
    expect(await context.producer("direct:echo").request()).toBe("late");
  });

  it("a wrapSend that returns send itself stays out of the way, asked once per URI", async () => {
    const asked: string[] = [];
    context = createContext({ logLevel: "off" });
    context.addInterceptor({
      name: "bystander",
      wrapStep: (_step, next) => next,
      wrapSend: (uri, send) => {
        asked.push(uri);
        return send;
      },
    });
    await context.addRoutes((r) => r.from("direct:echo").setBody((exchange) => `reply to ${exchange.body}`));
    await context.start();
    expect(await context.request("direct:echo", "a")).toBe("reply to a");
    expect(await context.request("direct:echo", "b")).toBe("reply to b");
    await context.send("direct:echo", "c");
    expect(await context.producer("direct:echo").request("d")).toBe("reply to d");
    expect(asked).toEqual(["direct:echo"]);
  });

  it("refuses a wrapSend that is not a function, naming the interceptor", () => {
    context = createContext({ logLevel: "off" });
    const bad = { name: "broken", wrapStep: (_step: unknown, next: unknown) => next, wrapSend: "yes" };
    expect(() => context.addInterceptor(bad as never)).toThrow(RoutekitError);
    expect(() => context.addInterceptor(bad as never)).toThrow(
      "addInterceptor(): interceptor 'broken' has a wrapSend that is not a function (found",
    );
  });

  it("a wrapSend returning something other than a function fails the send, naming the interceptor and URI", async () => {
    context = createContext({ logLevel: "off" });
    context.addInterceptor({
      name: "odd",
      wrapStep: (_step, next) => next,
      wrapSend: () => 42 as never,
    });
    await context.addRoutes((r) => r.from("direct:echo").setBody(() => "reply"));
    await context.start();
    await expect(context.request("direct:echo")).rejects.toThrow(
      "Send to 'direct:echo': interceptor 'odd' wrapSend must return a function",
    );
  });
});
