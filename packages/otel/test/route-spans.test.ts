import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

async function traced(routes: Parameters<RouteContext["addRoutes"]>[0], options = {}) {
  sdk = startTestSdk();
  context = createContext({ logLevel: "off" });
  context.use(
    otelPlugin({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options }),
  );
  await context.addRoutes(routes);
  await context.start();
  return { sdk, context };
}

describe("route and send spans", () => {
  it("gives each route run a CONSUMER span and each send a PRODUCER span, in one trace across seda:", async () => {
    const { sdk, context } = await traced((r) => {
      r.from("direct:start").routeId("start").to("direct:sub").to("seda:later").to("log:quiet?level=off");
      r.from("direct:sub").routeId("sub").setHeader("seen", "yes");
      r.from("seda:later").routeId("later").to("mock:end");
    });
    context.endpoint("mock:end").expectedMessageCount(1);

    const exchange = await context.requestExchange("direct:start", { body: "hello" });
    await context.endpoint("mock:end").assertIsSatisfied(5_000);
    await vi.waitFor(() => expect(sdk.spans()).toHaveLength(6), { timeout: 5_000 });

    const spans = sdk.spans();
    const start = spanNamed(spans, "process direct:start");
    const sendSub = spanNamed(spans, "send direct:sub");
    const sub = spanNamed(spans, "process direct:sub");
    const sendLater = spanNamed(spans, "send seda:later");
    const later = spanNamed(spans, "process seda:later");
    const sendEnd = spanNamed(spans, "send mock:end");
    expect(start.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(start)).toBe("");
    expect([sendSub.kind, sendLater.kind, sendEnd.kind]).toEqual([
      SpanKind.PRODUCER,
      SpanKind.PRODUCER,
      SpanKind.PRODUCER,
    ]);
    expect(parentOf(sendSub)).toBe(start.spanContext().spanId);
    expect(parentOf(sub)).toBe(sendSub.spanContext().spanId);
    expect(parentOf(sendLater)).toBe(start.spanContext().spanId);
    expect(parentOf(later)).toBe(sendLater.spanContext().spanId);
    expect(parentOf(sendEnd)).toBe(later.spanContext().spanId);
    const traceIds = new Set(spans.map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    expect(start.attributes).toMatchObject({
      "routekit.route.id": "start",
      "routekit.exchange.id": exchange.id,
      "messaging.system": "routekit",
      "messaging.destination.name": "start",
      "messaging.operation.type": "process",
    });
    expect(sendLater.attributes).toMatchObject({
      "messaging.operation.type": "send",
      "messaging.destination.name": "later",
      "routekit.endpoint.uri": "seda:later",
    });
    // The seda message carried the trace; the sender's exchange is left as it was.
    const received = context.endpoint("mock:end").received[0];
    expect(received?.headers.traceparent).toBe(
      `00-${sendLater.spanContext().traceId}-${sendLater.spanContext().spanId}-01`,
    );
    expect(exchange.headers).toEqual({ seen: "yes" });
  });

  it("records a failure with error.type, an error status and the exception, and counts it", async () => {
    const { sdk, context } = await traced((r) => {
      r.from("direct:fails")
        .routeId("fails")
        .process(() => {
          throw new TypeError("the body is not a number");
        });
      r.from("direct:lost").routeId("lost").to("direct:nobody");
    });

    await expect(context.request("direct:fails", "x")).rejects.toThrow("the body is not a number");
    await expect(context.request("direct:lost", "x")).rejects.toThrow("direct:nobody");

    const spans = sdk.spans();
    const failed = spanNamed(spans, "process direct:fails");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.status.message).toContain("the body is not a number");
    expect(failed.attributes["error.type"]).toBeTypeOf("string");
    expect(failed.events.map((event) => event.name)).toContain("exception");
    const send = spanNamed(spans, "send direct:nobody");
    expect(send.attributes["error.type"]).toBe("NO_CONSUMER");
    expect(send.status.code).toBe(SpanStatusCode.ERROR);

    const failures = await sdk.points("routekit.route.failures");
    const byRoute = Object.fromEntries(
      failures.map((point) => [point.attributes["routekit.route.id"], point]),
    );
    expect(byRoute.fails?.value).toBe(1);
    expect(byRoute.lost?.value).toBe(1);
    const exchanges = await sdk.points("routekit.route.exchanges");
    expect(exchanges.map((point) => point.value)).toEqual([1, 1]);
    const durations = await sdk.points("routekit.route.duration");
    expect(durations).toHaveLength(2);
  });

  it("counts exchanges and their duration per route", async () => {
    const { sdk, context } = await traced((r) => {
      r.from("direct:count").routeId("count").setBody("${body} counted");
    });
    for (let index = 0; index < 3; index++) await context.request("direct:count", index);
    const [exchanges] = await sdk.points("routekit.route.exchanges");
    expect(exchanges?.value).toBe(3);
    expect(exchanges?.attributes).toEqual({ "routekit.route.id": "count" });
    const [duration] = await sdk.points("routekit.route.duration");
    expect(duration?.value).toMatchObject({ count: 3 });
  });

  it("gives every step a span with stepSpans: true, and none with a sample of 0", async () => {
    const { sdk, context } = await traced(
      (r) => {
        r.from("direct:steps")
          .routeId("steps")
          .setHeader("a", "1")
          .choice((c) =>
            c.when("${header.a} == '1'", (b) => b.setBody("one")).otherwise((b) => b.setBody("other")),
          );
      },
      { stepSpans: true },
    );
    expect(await context.request("direct:steps", "x")).toBe("one");
    const names = sdk.spans().map((span) => span.name);
    expect(names).toContain("process direct:steps");
    const route = spanNamed(sdk.spans(), "process direct:steps");
    const stepSpans = sdk.spans().filter((span) => span.attributes["routekit.step.path"] !== undefined);
    expect(stepSpans.length).toBeGreaterThanOrEqual(3);
    const first = stepSpans.find((span) => span.attributes["routekit.step.path"] === "#1 setHeader(a)");
    expect(first && parentOf(first)).toBe(route.spanContext().spanId);
    const nested = stepSpans.find((span) => String(span.attributes["routekit.step.path"]).includes(" > "));
    expect(nested).toBeDefined();
    const choice = stepSpans.find(
      (span) =>
        String(span.attributes["routekit.step.path"]).startsWith("#2 choice") &&
        !String(span.attributes["routekit.step.path"]).includes(" > "),
    );
    expect(nested && parentOf(nested)).toBe(choice?.spanContext().spanId);
  });

  it("records no step spans when stepSpans samples none of the runs", async () => {
    const { sdk, context } = await traced(
      (r) => {
        r.from("direct:unsampled-steps").routeId("quiet").setHeader("a", "1").setBody("done");
      },
      { stepSpans: { sample: 0 } },
    );
    await context.request("direct:unsampled-steps", "x");
    expect(sdk.spans().map((span) => span.name)).toEqual(["process direct:unsampled-steps"]);
  });
});
