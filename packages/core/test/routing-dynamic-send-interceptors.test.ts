import { afterEach, describe, expect, it } from "vitest";
import {
  type Component,
  createContext,
  defineComponent,
  type RouteContext,
  type StepInterceptor,
} from "../src/index.js";
import type { SendStep } from "../src/internal.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

/** A component whose endpoints log their lifecycle (`create rec:a`, `stop rec:a`) and what they received. */
function recordingComponent() {
  const log: string[] = [];
  const component = defineComponent({
    scheme: "rec",
    options: {},
    createEndpoint(address) {
      log.push(`create ${address.uri}`);
      return {
        uri: address.uri,
        send(exchange) {
          if (address.path === "fail") throw new Error("refused");
          log.push(`send ${address.uri} wrapped=${String(exchange.headers.wrapped)}`);
        },
        stop() {
          log.push(`stop ${address.uri}`);
        },
      };
    },
  });
  return { component: component as unknown as Component, log };
}

/**
 * An interceptor that wraps the sends of steps, marking the exchange, and records each wrapSend
 * call for one (the context's own sends, `context.request` here, it leaves as they are).
 */
function wrappingInterceptor() {
  const calls: Array<{ uri: string; step: SendStep }> = [];
  const interceptor: StepInterceptor = {
    name: "wrapper",
    wrapStep: (_step, next) => next,
    wrapSend(uri, send, step) {
      if (step === undefined) return send;
      calls.push({ uri, step });
      return (exchange) => {
        exchange.headers.wrapped = uri;
        return send(exchange);
      };
    },
  };
  return { interceptor, calls };
}

async function start(
  configure: Parameters<RouteContext["addRoutes"]>[0],
  ...interceptors: StepInterceptor[]
) {
  const { component, log } = recordingComponent();
  context = createContext({ logLevel: "off" });
  context.addComponent(component);
  for (const interceptor of interceptors) context.addInterceptor(interceptor);
  await context.addRoutes(configure);
  await context.start();
  return { context, log };
}

describe("toD and recipientList send through the interceptors' wrapSend", () => {
  it("toD: each destination's send is wrapped once, told the step, and used for every message to it", async () => {
    const { interceptor, calls } = wrappingInterceptor();
    const { context, log } = await start(
      (r) => r.from("direct:go").routeId("go").toD("rec:${header.id}"),
      interceptor,
    );
    for (const id of ["a", "b", "a", "a"]) await context.request("direct:go", "x", { id });
    expect(calls).toEqual([
      { uri: "rec:a", step: { routeId: "go", path: "#1 toD(rec:${header.id})" } },
      { uri: "rec:b", step: { routeId: "go", path: "#1 toD(rec:${header.id})" } },
    ]);
    expect(log.filter((entry) => entry.startsWith("send"))).toEqual([
      "send rec:a wrapped=rec:a",
      "send rec:b wrapped=rec:b",
      "send rec:a wrapped=rec:a",
      "send rec:a wrapped=rec:a",
    ]);
  });

  it("toD: an endpoint the context holds (a route's from) is wrapped once as well", async () => {
    const { interceptor, calls } = wrappingInterceptor();
    const seen: unknown[] = [];
    const { context } = await start((r) => {
      r.from("direct:go").toD("direct:${header.id}");
      r.from("direct:held").process((exchange) => void seen.push(exchange.headers.wrapped));
    }, interceptor);
    for (let index = 0; index < 3; index++) await context.request("direct:go", "x", { id: "held" });
    expect(calls.map((call) => call.uri)).toEqual(["direct:held"]);
    expect(seen).toEqual(["direct:held", "direct:held", "direct:held"]);
  });

  it("toD with cacheSize 0 still drops the endpoint after each send, wrapping each new one", async () => {
    const { interceptor, calls } = wrappingInterceptor();
    const { context, log } = await start(
      (r) => r.from("direct:go").toD("rec:${header.id}", { cacheSize: 0 }),
      interceptor,
    );
    for (let index = 0; index < 2; index++) await context.request("direct:go", "x", { id: "a" });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(log).toEqual([
      "create rec:a",
      "send rec:a wrapped=rec:a",
      "stop rec:a",
      "create rec:a",
      "send rec:a wrapped=rec:a",
      "stop rec:a",
    ]);
    expect(calls.map((call) => call.uri)).toEqual(["rec:a", "rec:a"]);
  });

  it("recipientList: each recipient's send is wrapped once, told the step; every copy goes through it", async () => {
    const { interceptor, calls } = wrappingInterceptor();
    const { context, log } = await start(
      (r) => r.from("direct:go").routeId("go").recipientList("rec:a,rec:b"),
      interceptor,
    );
    for (let index = 0; index < 2; index++) await context.request("direct:go", "x");
    expect(calls).toEqual([
      { uri: "rec:a", step: { routeId: "go", path: "#1 recipientList" } },
      { uri: "rec:b", step: { routeId: "go", path: "#1 recipientList" } },
    ]);
    expect(log.filter((entry) => entry.startsWith("send"))).toEqual([
      "send rec:a wrapped=rec:a",
      "send rec:b wrapped=rec:b",
      "send rec:a wrapped=rec:a",
      "send rec:b wrapped=rec:b",
    ]);
  });

  it("a wrapSend that throws fails the step naming the interceptor, and the endpoint it made is dropped", async () => {
    const broken: StepInterceptor = {
      name: "broken",
      wrapStep: (_step, next) => next,
      wrapSend: (_uri, send, step) => {
        if (step === undefined) return send;
        throw new Error("no wrapping today");
      },
    };
    const { context, log } = await start((r) => r.from("direct:go").toD("rec:${header.id}"), broken);
    await expect(context.request("direct:go", "x", { id: "a" })).rejects.toThrow(
      "interceptor 'broken' failed in wrapSend: no wrapping today",
    );
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(log).toEqual(["create rec:a", "stop rec:a"]);
  });

  it("with no interceptor wrapping sends, the endpoints are sent to as they are", async () => {
    const { context, log } = await start((r) =>
      r.from("direct:go").toD("rec:${header.id}").recipientList("rec:b"),
    );
    await context.request("direct:go", "x", { id: "a" });
    expect(log).toEqual([
      "create rec:a",
      "send rec:a wrapped=undefined",
      "create rec:b",
      "send rec:b wrapped=undefined",
    ]);
  });
});
