import { createContext } from "@routekit/core";
import { describe, expect, it } from "vitest";
import { OtelError, otelPlugin } from "../src/index.js";
import { startTestSdk } from "./support/otel-sdk.js";

/** A logger that drops every line (tests replace the level they watch). */
const silent = { trace() {}, debug() {}, info() {}, warn(_message: string) {}, error() {} };

describe("otelPlugin options", () => {
  it("refuses bad options, naming the option, what it expects and what it found", () => {
    const cases: Array<[unknown, string]> = [
      ["yes", 'otelPlugin(): options must be an object (found string "yes")'],
      [null, "otelPlugin(): options must be an object (found null)"],
      [
        { stepSpans: "all" },
        "option 'stepSpans' must be true, false or { sample } (a number from 0 to 1) (found string \"all\")",
      ],
      [
        { stepSpans: { sample: 2 } },
        "option 'stepSpans.sample' must be a number from 0 to 1 (found number 2)",
      ],
      [{ stepSpans: {} }, "option 'stepSpans.sample' must be given: a number from 0 to 1 (found undefined)"],
      [{ stepSpans: { sampel: 0.5 } }, "unknown option 'stepSpans.sampel' (did you mean 'sample'?)"],
      [{ recordContent: "true" }, "option 'recordContent' must be true or false (found string \"true\")"],
      [
        { tracerProvider: {} },
        "option 'tracerProvider' must be a TracerProvider (with getTracer()) (found an object)",
      ],
      [
        { meterProvider: 1 },
        "option 'meterProvider' must be a MeterProvider (with getMeter()) (found number 1)",
      ],
      [
        { propagator: { inject() {} } },
        "option 'propagator' must be a TextMapPropagator (with inject(), extract() and fields())",
      ],
      [
        { stepSpan: true },
        "unknown option 'stepSpan' (did you mean 'stepSpans'?) (expected one of tracerProvider, meterProvider, propagator, stepSpans, recordContent)",
      ],
    ];
    for (const [options, message] of cases) {
      const attempt = () => otelPlugin(options as never);
      expect(attempt).toThrow(OtelError);
      expect(attempt).toThrow(message);
    }
  });

  it("installs in one line, with nothing else needed (and nothing to warn about without an SDK)", async () => {
    const warnings: string[] = [];
    const context = createContext({ logger: { ...silent, warn: (message) => void warnings.push(message) } });
    context.use(otelPlugin());
    await context.addRoutes((r) => r.from("direct:one").setBody("${body}!"));
    await context.start();
    expect(await context.request("direct:one", "hi")).toBe("hi!");
    await context.stop();
    expect(warnings).toEqual([]);
  });

  it("leaves routes added before an SDK is registered exactly as they are, and says so when the context starts", async () => {
    const warnings: string[] = [];
    const logger = { ...silent, warn: (message: string) => void warnings.push(message) };
    const context = createContext({ logger });
    context.use(otelPlugin());
    await context.addRoutes((r) => r.from("direct:early").routeId("early").to("seda:early-next"));
    await context.addRoutes((r) => r.from("seda:early-next").routeId("early-next").to("mock:early"));
    const sdk = startTestSdk({ global: true });
    try {
      await context.start();
      context.endpoint("mock:early").expectedMessageCount(1);
      await context.request("direct:early", "x");
      await context.endpoint("mock:early").assertIsSatisfied(5_000);
      expect(sdk.spans()).toEqual([]);
      expect(context.endpoint("mock:early").received[0]?.headers).toEqual({});
      expect(warnings).toEqual([
        "otelPlugin: route(s) 'early', 'early-next' were added before a tracer or meter provider was registered and get no spans or metrics; register the OpenTelemetry SDK before context.addRoutes()",
      ]);
    } finally {
      await context.stop();
      await sdk.shutdown();
    }
  });
});
