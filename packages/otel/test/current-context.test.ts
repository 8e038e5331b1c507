import {
  context as otelContext,
  ROOT_CONTEXT,
  type SpanContext,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { otelPlugin } from "../src/index.js";
import { spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

/** A context whose direct:start calls direct:sub (no code of its own), whose process() notes the current span. */
async function start(sampled: boolean, seen: Array<SpanContext | undefined>): Promise<RouteContext> {
  sdk = startTestSdk({ sampled });
  context = createContext({ logLevel: "off" });
  context.use(otelPlugin({ tracerProvider: sdk.tracerProvider }));
  await context.addRoutes((r) => {
    r.from("direct:start").setHeader("seen", "${body}").to("direct:sub").to("seda:next");
    r.from("direct:sub").process(() => void seen.push(trace.getActiveSpan()?.spanContext()));
    r.from("seda:next").to("mock:end");
  });
  await context.start();
  return context;
}

describe("the current context inside a route", () => {
  it("is the route's span in a route with code, also when its caller has none", async () => {
    const seen: Array<SpanContext | undefined> = [];
    const routes = await start(true, seen);
    await routes.request("direct:start", "hello");
    const sub = spanNamed(sdk?.spans() ?? [], "process direct:sub");
    expect(seen).toEqual([sub.spanContext()]);
  });

  it("is the not-sampled caller's context in a direct: route with code under a route without", async () => {
    const seen: Array<SpanContext | undefined> = [];
    const routes = await start(false, seen);
    const upstream = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.NONE,
    });
    // A root the sampler turns down, then a trace its upstream did not sample.
    await routes.request("direct:start", "root");
    await otelContext.with(trace.setSpan(ROOT_CONTEXT, upstream), () =>
      routes.request("direct:start", "inside"),
    );
    expect(seen).toHaveLength(2);
    const [root, inside] = seen;
    expect(root?.traceFlags).toBe(TraceFlags.NONE);
    expect(root?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root?.traceId).not.toBe("0".repeat(32));
    expect(inside).toEqual(upstream.spanContext());
    expect(sdk?.spans()).toEqual([]);
  });
});
