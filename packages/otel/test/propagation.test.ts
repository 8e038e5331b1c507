import { SpanKind } from "@opentelemetry/api";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
const contexts: RouteContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  sdk = undefined;
});

async function start(
  configure: (context: RouteContext) => void,
  routes: Parameters<RouteContext["addRoutes"]>[0],
): Promise<RouteContext> {
  const context = createContext({ logLevel: "off" });
  contexts.push(context);
  configure(context);
  await context.addRoutes(routes);
  await context.start();
  return context;
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

describe("trace context in headers", () => {
  it("continues the trace a message carries, and ignores a malformed traceparent safely", async () => {
    sdk = startTestSdk();
    const { tracerProvider } = sdk;
    const context = await start(
      (target) => target.use(otelPlugin({ tracerProvider })),
      (r) => r.from("seda:in").routeId("in").to("mock:out"),
    );
    const out = context.endpoint("mock:out");
    out.expectedMessageCount(6);
    await context.send("seda:in", "valid", {
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      tracestate: "vendor=value",
    });
    const hostile: Array<Record<string, unknown>> = [
      { traceparent: "00-not-a-trace-01" },
      { traceparent: `00-${"0".repeat(32)}-${PARENT_ID}-01` },
      { traceparent: [`00-${TRACE_ID}-${PARENT_ID}-01`, `00-${TRACE_ID}-${PARENT_ID}-01`] },
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01${"x".repeat(100_000)}`, tracestate: 42 },
      { traceparent: { toString: () => `00-${TRACE_ID}-${PARENT_ID}-01` } },
    ];
    for (const headers of hostile) await context.send("seda:in", "hostile", headers);
    await out.assertIsSatisfied(5_000);
    await vi.waitFor(() =>
      expect(sdk?.spans().filter((span) => span.name === "process seda:in")).toHaveLength(6),
    );

    const routeSpans = sdk.spans().filter((span) => span.name === "process seda:in");
    const continued = routeSpans.filter((span) => span.spanContext().traceId === TRACE_ID);
    expect(continued).toHaveLength(1);
    expect(parentOf(continued[0]!)).toBe(PARENT_ID);
    expect(continued[0]!.spanContext().traceState?.get("vendor")).toBe("value");
    // Every malformed one started a trace of its own, and its message was processed all the same.
    const fresh = routeSpans.filter((span) => span.spanContext().traceId !== TRACE_ID);
    expect(fresh).toHaveLength(5);
    for (const span of fresh) expect(parentOf(span)).toBe("");
    expect(new Set(fresh.map((span) => span.spanContext().traceId)).size).toBe(5);
    expect(out.received.map((exchange) => exchange.body)).toEqual([
      "valid",
      "hostile",
      "hostile",
      "hostile",
      "hostile",
      "hostile",
    ]);
  });

  it("carries the trace through http: both ways: client CLIENT span, server SERVER span under it", async () => {
    sdk = startTestSdk();
    const { tracerProvider } = sdk;
    const server = await start(
      (target) => {
        target.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
        target.use(otelPlugin({ tracerProvider }));
      },
      (r) =>
        r
          .from("http:/orders/{id}")
          .routeId("orders")
          .process((exchange) => {
            exchange.body = {
              id: exchange.headers["http.path.id"],
              traced: exchange.headers["http.header.traceparent"] !== undefined,
            };
          }),
    );
    const url = httpServerOf(server).url;
    const client = await start(
      (target) => {
        target.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
        target.use(otelPlugin({ tracerProvider }));
      },
      (r) => r.from("direct:call").routeId("call").to(`${url}/orders/7`),
    );

    const exchange = await client.requestExchange("direct:call", { body: "" });
    expect(exchange.error).toBeUndefined();
    expect(exchange.body).toEqual({ id: "7", traced: true });
    expect(Object.keys(exchange.headers).filter((name) => name.includes("traceparent"))).toEqual([]);

    await vi.waitFor(() => expect(sdk?.spans()).toHaveLength(3));
    const spans = sdk.spans();
    const caller = spanNamed(spans, "process direct:call");
    const call = spans.find((span) => span.kind === SpanKind.CLIENT);
    const served = spans.find((span) => span.kind === SpanKind.SERVER);
    expect(call?.name).toBe(`send ${url}/orders/7`);
    expect(call && parentOf(call)).toBe(caller.spanContext().spanId);
    expect(served?.name).toMatch(/^(GET|POST) \/orders\/\{id\}$/);
    expect(served && parentOf(served)).toBe(call?.spanContext().spanId);
    expect(served?.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(served?.attributes).toMatchObject({
      "http.route": "/orders/{id}",
      "url.path": "/orders/7",
      "routekit.route.id": "orders",
    });
    expect(call?.attributes["http.response.status_code"]).toBe(200);
  });

  it("with sampling off records nothing and still passes the not-sampled decision on", async () => {
    sdk = startTestSdk({ sampled: false });
    const { tracerProvider } = sdk;
    const context = await start(
      (target) => target.use(otelPlugin({ tracerProvider })),
      (r) => {
        r.from("direct:quiet").routeId("quiet").to("direct:inner").to("seda:next");
        r.from("direct:inner").routeId("inner").setHeader("inner", "yes");
        r.from("seda:next").routeId("next").to("mock:quiet");
      },
    );
    context.endpoint("mock:quiet").expectedMessageCount(1);
    await context.request("direct:quiet", "x");
    await context.endpoint("mock:quiet").assertIsSatisfied(5_000);
    expect(sdk.spans()).toEqual([]);
    const carried = context.endpoint("mock:quiet").received[0]?.headers.traceparent;
    expect(carried).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });
  it("records nothing for a message whose trace was not sampled upstream, and passes that decision on", async () => {
    sdk = startTestSdk();
    const { tracerProvider } = sdk;
    const context = await start(
      (target) => target.use(otelPlugin({ tracerProvider })),
      (r) => {
        r.from("seda:unsampled").routeId("unsampled").to("direct:unsampled-inner").to("seda:unsampled-next");
        r.from("direct:unsampled-inner").routeId("unsampled-inner").setHeader("inner", "yes");
        r.from("seda:unsampled-next").routeId("unsampled-next").to("mock:unsampled");
      },
    );
    context.endpoint("mock:unsampled").expectedMessageCount(1);
    await context.send("seda:unsampled", "x", { traceparent: `00-${TRACE_ID}-${PARENT_ID}-00` });
    await context.endpoint("mock:unsampled").assertIsSatisfied(5_000);
    expect(sdk.spans()).toEqual([]);
    expect(context.endpoint("mock:unsampled").received[0]?.headers.traceparent).toBe(
      `00-${TRACE_ID}-${PARENT_ID}-00`,
    );
  });
});

describe("without an SDK", () => {
  it("routes run as before: no spans, no trace headers added to messages", async () => {
    const context = await start(
      (target) => target.use(otelPlugin()),
      (r) => {
        r.from("direct:plain").routeId("plain").to("seda:plain-next");
        r.from("seda:plain-next").routeId("plain-next").to("mock:plain");
      },
    );
    context.endpoint("mock:plain").expectedMessageCount(1);
    await context.request("direct:plain", "x", { kept: 1 });
    await context.endpoint("mock:plain").assertIsSatisfied(5_000);
    expect(context.endpoint("mock:plain").received[0]?.headers).toEqual({ kept: 1 });
  });

  it("uses the global providers when they are registered before the context starts", async () => {
    sdk = startTestSdk({ global: true });
    const context = await start(
      (target) => target.use(otelPlugin()),
      (r) => r.from("direct:global").routeId("global").setBody("done"),
    );
    await context.request("direct:global", "x");
    expect(sdk.spans().map((span) => span.name)).toEqual(["process direct:global"]);
    const [count] = await sdk.points("routekit.route.exchanges");
    expect(count?.value).toBe(1);
  });
});
