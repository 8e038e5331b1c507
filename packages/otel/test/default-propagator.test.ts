import { randomUUID } from "node:crypto";
import { propagation } from "@opentelemetry/api";
import { amqpPlugin } from "@routekit/amqp";
import { createContext, type Logger, type RouteContext } from "@routekit/core";
import { servicesMissing } from "@routekit/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

const brokerAvailable = !(await servicesMissing(["RabbitMQ"]));

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

function recordingLogger(lines: string[]): Logger {
  const record = (message: string) => {
    lines.push(message);
  };
  return { error: record, warn: record, info: record, debug: () => {}, trace: () => {} };
}

describe.skipIf(!brokerAvailable)("otelPlugin with no propagator registered", () => {
  it("carries the trace across a RabbitMQ hop as W3C trace context, and says so when it starts", async () => {
    sdk = startTestSdk({ propagator: false });
    expect(propagation.fields()).toEqual([]);
    const queue = `rk-test-otel-default-${randomUUID().slice(0, 8)}`;
    const queueUri = `amqp:queue:${queue}?durable=false&autoDelete=true&deadLetter=false`;
    const lines: string[] = [];
    context = createContext({ logger: recordingLogger(lines) });
    context.use(amqpPlugin());
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider }));
    const received: Array<Record<string, unknown>> = [];
    await context.addRoutes((r) => {
      r.from("direct:start").routeId("start").to(queueUri);
      r.from(queueUri)
        .routeId("worker")
        .process((exchange) => {
          received.push({ ...exchange.headers });
        });
    });
    await context.start();
    await context.send("direct:start", "hello");
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() =>
      expect(sdk?.spans().map((span) => span.name)).toContain(`process amqp:queue:${queue}`),
    );

    const spans = sdk.spans();
    const start = spanNamed(spans, "process direct:start");
    const send = spanNamed(spans, `send amqp:queue:${queue}`);
    const consumed = spanNamed(spans, `process amqp:queue:${queue}`);
    expect(consumed.spanContext().traceId).toBe(start.spanContext().traceId);
    expect(parentOf(consumed)).toBe(send.spanContext().spanId);
    expect(received[0]?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // The global propagator is left as it was.
    expect(propagation.fields()).toEqual([]);
    expect(lines.some((line) => line.includes("no OpenTelemetry propagator is registered"))).toBe(true);
  });
});
