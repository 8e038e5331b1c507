import {
  context as otelContext,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { createContext, type RouteBuilder, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, spanTree, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

/** Runs `direct:start` once with the receivers seda:a, seda:b and direct:c; returns the spans. */
async function run(build: (r: RouteBuilder) => void, expected: number): Promise<ReadableSpan[]> {
  sdk = startTestSdk();
  const started = sdk;
  context = createContext({ logLevel: "off" });
  context.use(otelPlugin({ tracerProvider: started.tracerProvider }));
  await context.addRoutes((r) => {
    build(r);
    for (const name of ["seda:a", "seda:b", "direct:c"]) r.from(name).setBody(() => name);
  });
  await context.start();
  await context.request("direct:start", "message", { target: "a" });
  await vi.waitFor(() => expect(started.spans().length).toBeGreaterThanOrEqual(expected));
  return started.spans();
}

/** Asserts `child` is a child of `parent` in the same trace (the tree shown when not). */
function expectChild(spans: ReadableSpan[], child: ReadableSpan, parent: ReadableSpan): void {
  expect(parentOf(child), spanTree(spans)).toBe(parent.spanContext().spanId);
  expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
}

/**
 * Asserts the span `send {name}` is a PRODUCER child of the route span of direct:start, and the
 * routes of `received` are its children.
 */
function expectSend(spans: ReadableSpan[], name: string, received: string[]): void {
  const send = spanNamed(spans, `send ${name}`);
  expect(send.kind).toBe(SpanKind.PRODUCER);
  expectChild(spans, send, spanNamed(spans, "process direct:start"));
  for (const uri of received) expectChild(spans, spanNamed(spans, `process ${uri}`), send);
}

describe("sends made inside steps", () => {
  it("multicast: a producer span per branch under the route span, each receiver under its send", async () => {
    const spans = await run((r) => r.from("direct:start").multicast(["seda:a", "seda:b", "direct:c"]), 7);
    expectSend(spans, "seda:a", ["seda:a"]);
    expectSend(spans, "seda:b", ["seda:b"]);
    expectSend(spans, "direct:c", ["direct:c"]);
  });

  it("wireTap: a producer span under the route span, the tapped copy's route under it", async () => {
    const spans = await run((r) => r.from("direct:start").wireTap("seda:a"), 3);
    expectSend(spans, "seda:a", ["seda:a"]);
  });

  it("context.request and producer(uri).request inside process(): a producer span each, the direct: route under it", async () => {
    const spans = await run(
      (r) =>
        r.from("direct:start").process(async (exchange) => {
          const first = await exchange.context.request("direct:c", exchange.body);
          exchange.body = [first, await exchange.context.producer("direct:c").request(exchange.body)];
        }),
      5,
    );
    const route = spanNamed(spans, "process direct:start");
    const sends = spans.filter((span) => span.name === "send direct:c");
    const called = spans.filter((span) => span.name === "process direct:c");
    expect(sends).toHaveLength(2);
    expect(called).toHaveLength(2);
    for (const send of sends) {
      expect(send.kind).toBe(SpanKind.PRODUCER);
      expect(send.attributes["messaging.destination.name"]).toBe("c");
      expectChild(spans, send, route);
    }
    expect(called.map(parentOf).sort()).toEqual(sends.map((send) => send.spanContext().spanId).sort());
  });

  it("context.send inside process() to seda: a producer span under the route span, the seda: route under it", async () => {
    const received: unknown[] = [];
    const spans = await run((r) => {
      r.from("direct:start").process((exchange) =>
        exchange.context.send("seda:audit", exchange.body, { kept: 1 }),
      );
      r.from("seda:audit").process((exchange) => void received.push(exchange.headers.kept));
    }, 3);
    expectSend(spans, "seda:audit", ["seda:audit"]);
    expect(received).toEqual([1]);
  });

  it("context.send inside process() to seda: a context the user injected is replaced by the send span's, in the same trace", async () => {
    const spans = await run(
      (r) =>
        r.from("direct:start").process((exchange) => {
          const headers: Record<string, string> = {};
          propagation.inject(otelContext.active(), headers);
          return exchange.context.send("seda:a", exchange.body, headers);
        }),
      3,
    );
    expectSend(spans, "seda:a", ["seda:a"]);
  });

  it("with no SDK registered, sends through the context are left as they are", async () => {
    const send = (): void => undefined;
    const [interceptor] = otelPlugin().interceptors ?? [];
    expect(interceptor?.wrapSend?.("seda:audit", send)).toBe(send);
    sdk = startTestSdk();
    // Installed, the plugin reads what each endpoint's component declares (log: is not traced).
    const plugin = otelPlugin({ tracerProvider: sdk.tracerProvider });
    createContext({ logLevel: "off" }).use(plugin);
    const [traced] = plugin.interceptors ?? [];
    expect(traced?.wrapSend?.("seda:audit", send)).not.toBe(send);
    expect(traced?.wrapSend?.("log:audit", send)).toBe(send);
  });

  it("context.send outside any trace gets no producer span: the route it reaches starts the trace", async () => {
    sdk = startTestSdk();
    const started = sdk;
    context = createContext({ logLevel: "off" });
    context.use(otelPlugin({ tracerProvider: started.tracerProvider }));
    const seen: unknown[] = [];
    await context.addRoutes((r) =>
      r.from("seda:audit").process((exchange) => void seen.push(exchange.headers)),
    );
    await context.start();
    await context.send("seda:audit", "message");
    await vi.waitFor(() => expect(started.spans()).toHaveLength(1));
    const [route] = started.spans();
    expect(route?.name).toBe("process seda:audit");
    expect(route?.parentSpanContext).toBeUndefined();
    expect(seen).toEqual([{}]);
  });

  it("a trace that is not sampled stays not sampled through context.send from a process() step", async () => {
    sdk = startTestSdk({ sampled: false });
    const started = sdk;
    context = createContext({ logLevel: "off" });
    context.use(otelPlugin({ tracerProvider: started.tracerProvider }));
    const seen: unknown[] = [];
    await context.addRoutes((r) => {
      r.from("direct:start").process((exchange) => exchange.context.send("seda:audit", exchange.body));
      r.from("seda:audit").process((exchange) => void seen.push(exchange.headers.traceparent));
    });
    await context.start();
    const upstream = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.NONE,
    });
    const caller = context;
    await otelContext.with(trace.setSpan(ROOT_CONTEXT, upstream), () =>
      caller.request("direct:start", "message"),
    );
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen).toEqual(["00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"]);
    expect(started.spans()).toEqual([]);
  });

  it("a trace that is not sampled stays not sampled through toD and recipientList to seda:", async () => {
    sdk = startTestSdk({ sampled: false });
    const started = sdk;
    context = createContext({ logLevel: "off" });
    context.use(otelPlugin({ tracerProvider: started.tracerProvider }));
    const seen: unknown[] = [];
    await context.addRoutes((r) => {
      r.from("direct:start").toD("seda:${header.target}").recipientList("seda:b");
      for (const name of ["seda:a", "seda:b"])
        r.from(name).process((exchange) => void seen.push([name, exchange.headers.traceparent]));
    });
    await context.start();
    // The caller runs inside a trace its upstream did not sample; the message has no trace headers.
    const upstream = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.NONE,
    });
    const caller = context;
    await otelContext.with(trace.setSpan(ROOT_CONTEXT, upstream), () =>
      caller.request("direct:start", "message", { target: "a" }),
    );
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    expect(seen).toEqual(
      expect.arrayContaining([
        ["seda:a", traceparent],
        ["seda:b", traceparent],
      ]),
    );
    expect(started.spans()).toEqual([]);
  });
});
