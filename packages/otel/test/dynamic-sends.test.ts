import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { createContext, type RouteBuilder, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, spanTree, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
const contexts: RouteContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  sdk = undefined;
});

/** A started context with the otel plugin on the test SDK (and the http plugin, when asked). */
async function started(build: (r: RouteBuilder) => void, http = false): Promise<RouteContext> {
  const context = createContext({ logLevel: "off" });
  contexts.push(context);
  if (http) context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
  context.use(otelPlugin({ tracerProvider: sdk!.tracerProvider, stepSpans: false }));
  await context.addRoutes(build);
  await context.start();
  return context;
}

/** Asserts `child` is a child of `parent` in the same trace (the tree shown when not). */
function expectChild(spans: ReadableSpan[], child: ReadableSpan, parent: ReadableSpan): void {
  expect(parentOf(child), spanTree(spans)).toBe(parent.spanContext().spanId);
  expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
}

/** The `traceparent` a span's context makes (sampled). */
const traceparentOf = (span: ReadableSpan): string =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

/** The names of the trace headers left on `headers`. */
const traceHeaders = (headers: Record<string, unknown>): string[] =>
  Object.keys(headers).filter((name) => name.includes("traceparent") || name.includes("tracestate"));

describe("toD and recipientList: a producer span per destination", () => {
  it("toD: one span per message named after the endpoint it built, under the route span; the receiver under it", async () => {
    sdk = startTestSdk();
    const carried: unknown[] = [];
    const context = await started((r) => {
      r.from("direct:start").routeId("start").toD("${header.target}", { raw: true });
      r.from("seda:a").process((exchange) => void carried.push(exchange.headers.traceparent));
      r.from("direct:c").setBody(() => "c");
    });
    const toSeda = await context.requestExchange("direct:start", { headers: { target: "seda:a?size=1000" } });
    const toDirect = await context.requestExchange("direct:start", { headers: { target: "direct:c" } });
    expect([toSeda.error, toDirect.error]).toEqual([undefined, undefined]);
    // The trace context rode with the send and was taken off again, as a `to` step's is.
    expect(traceHeaders(toSeda.headers)).toEqual([]);
    expect(traceHeaders(toDirect.headers)).toEqual([]);
    expect(toDirect.body).toBe("c");
    await vi.waitFor(() => expect(sdk?.spans()).toHaveLength(6));
    const spans = sdk.spans();

    const [first, second] = spans.filter((span) => span.name === "process direct:start");
    const sedaSend = spanNamed(spans, "send seda:a");
    const directSend = spanNamed(spans, "send direct:c");
    expectChild(spans, sedaSend, first!);
    expectChild(spans, directSend, second!);
    expectChild(spans, spanNamed(spans, "process seda:a"), sedaSend);
    expectChild(spans, spanNamed(spans, "process direct:c"), directSend);
    expect(carried).toEqual([traceparentOf(sedaSend)]);
    expect(sedaSend.kind).toBe(SpanKind.PRODUCER);
    expect(sedaSend.attributes).toEqual({
      "routekit.route.id": "start",
      "routekit.step.path": "#1 toD(${header.target}, raw)",
      "routekit.endpoint.uri": "seda:a",
      "messaging.system": "routekit",
      "messaging.destination.name": "a",
      "messaging.operation.type": "send",
      "messaging.operation.name": "send",
    });
    expect(directSend.attributes["messaging.destination.name"]).toBe("c");
  });

  it("recipientList: a span per recipient under the route span, each receiver under its own", async () => {
    sdk = startTestSdk();
    const carried: unknown[] = [];
    const context = await started((r) => {
      r.from("direct:start").routeId("start").recipientList("seda:a,direct:c");
      r.from("seda:a").process((exchange) => void carried.push(exchange.headers.traceparent));
      r.from("direct:c").setBody(() => "c");
    });
    const exchange = await context.requestExchange("direct:start", { body: "message" });
    expect(exchange.error).toBeUndefined();
    expect(traceHeaders(exchange.headers)).toEqual([]);
    await vi.waitFor(() => expect(sdk?.spans()).toHaveLength(5));
    const spans = sdk.spans();

    const route = spanNamed(spans, "process direct:start");
    const sends = spans.filter((span) => span.kind === SpanKind.PRODUCER);
    expect(sends.map((span) => span.name).sort()).toEqual(["send direct:c", "send seda:a"]);
    for (const send of sends) {
      expectChild(spans, send, route);
      expect(send.attributes).toMatchObject({
        "routekit.route.id": "start",
        "routekit.step.path": "#1 recipientList",
      });
    }
    expectChild(spans, spanNamed(spans, "process seda:a"), spanNamed(spans, "send seda:a"));
    expectChild(spans, spanNamed(spans, "process direct:c"), spanNamed(spans, "send direct:c"));
    expect(carried).toEqual([traceparentOf(spanNamed(spans, "send seda:a"))]);
  });

  it("a failing destination records the error on its own span only", async () => {
    sdk = startTestSdk();
    const context = await started((r) => {
      r.from("direct:start").recipientList("direct:ok,direct:bad");
      r.from("direct:ok").setBody(() => "ok");
      r.from("direct:bad").process(() => {
        throw new TypeError("bad recipient");
      });
    });
    const exchange = await context.requestExchange("direct:start", { body: "message" });
    expect(exchange.error?.message).toContain("bad recipient");
    await vi.waitFor(() => expect(sdk?.spans()).toHaveLength(5));
    const spans = sdk.spans();

    const failed = spanNamed(spans, "send direct:bad");
    expect(failed.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "bad recipient" });
    expect(failed.attributes["error.type"]).toBe("TypeError");
    expect(failed.events.map((event) => event.name)).toEqual(["exception"]);
    const fine = spanNamed(spans, "send direct:ok");
    expect(fine.status.code).toBe(SpanStatusCode.UNSET);
    expect(fine.events).toEqual([]);
    expect(fine.attributes["error.type"]).toBeUndefined();
  });

  it("toD to http: a CLIENT span per URL, its context in the request headers, the server's span under it", async () => {
    sdk = startTestSdk();
    const server = await started(
      (r) => r.from("http:/orders/{id}").setBody((exchange) => exchange.headers["http.header.traceparent"]),
      true,
    );
    const url = httpServerOf(server).url;
    const client = await started((r) => r.from("direct:call").toD(`${url}/orders/\${header.id}`), true);

    const exchange = await client.requestExchange("direct:call", { body: "", headers: { id: "7" } });
    expect(exchange.error).toBeUndefined();
    expect(traceHeaders(exchange.headers)).toEqual([]);
    await vi.waitFor(() => expect(sdk?.spans()).toHaveLength(3));
    const spans = sdk.spans();

    const call = spanNamed(spans, `send ${url}/orders/7`);
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes["http.response.status_code"]).toBe(200);
    expectChild(spans, call, spanNamed(spans, "process direct:call"));
    const served = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(served && parentOf(served)).toBe(call.spanContext().spanId);
    expect(exchange.body).toBe(traceparentOf(call));
  });

  it("with step spans, the destinations' spans nest under the toD step's span", async () => {
    sdk = startTestSdk();
    const context = createContext({ logLevel: "off" });
    contexts.push(context);
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider, stepSpans: true }));
    await context.addRoutes((r) => {
      r.from("direct:start").toD("direct:${header.target}");
      r.from("direct:c").setBody(() => "c");
    });
    await context.start();
    await context.request("direct:start", "message", { target: "c" });
    await vi.waitFor(() => expect(sdk?.spans().length).toBeGreaterThanOrEqual(4));
    const spans = sdk.spans();
    const step = spanNamed(spans, "#1 toD(direct:${header.target})");
    expect(step.kind).toBe(SpanKind.INTERNAL);
    expectChild(spans, step, spanNamed(spans, "process direct:start"));
    expectChild(spans, spanNamed(spans, "send direct:c"), step);
  });

  it("with no SDK registered, a step's sends are left as they are", async () => {
    const send = (): void => undefined;
    const step = { routeId: "start", path: "#1 toD(seda:${header.target})" };
    const [interceptor] = otelPlugin().interceptors ?? [];
    expect(interceptor?.wrapSend?.("seda:a", send, step)).toBe(send);
    sdk = startTestSdk();
    // Installed, the plugin reads what each endpoint's component declares (log: is not traced).
    const plugin = otelPlugin({ tracerProvider: sdk.tracerProvider });
    createContext({ logLevel: "off" }).use(plugin);
    const [traced] = plugin.interceptors ?? [];
    expect(traced?.wrapSend?.("seda:a", send, step)).not.toBe(send);
    expect(traced?.wrapSend?.("log:a", send, step)).toBe(send);
  });
});
