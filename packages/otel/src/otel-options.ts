import type { MeterProvider, TextMapPropagator, TracerProvider } from "@opentelemetry/api";
import { checkOptions, type OptionChecks, type OptionsSite } from "@routekit/core/internal";
import { OtelError } from "./otel-error.js";

/** Options of `otelPlugin`. Every field is optional: `otelPlugin()` uses the global providers. */
export interface OtelPluginOptions {
  /** Where spans go; default the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go; default the global meter provider, read when the context starts. */
  meterProvider?: MeterProvider;
  /**
   * How trace context crosses process boundaries; default the global propagator, or W3C trace
   * context (`traceparent`, `tracestate`) when none is registered.
   */
  propagator?: TextMapPropagator;
  /**
   * A span per step of a route (default `false`): `true` for every traced route run, or
   * `{ sample }` for that share (0 to 1) of route runs, drawn once per run.
   */
  stepSpans?: boolean | { sample: number };
  /**
   * Record message content (prompts, answers, system instructions, tool arguments and results)
   * on GenAI spans; default `false` (they may hold personal data).
   */
  recordContent?: boolean;
}

/** The options checked, with defaults applied. */
export interface ResolvedOtelOptions {
  readonly tracerProvider: TracerProvider | undefined;
  readonly meterProvider: MeterProvider | undefined;
  readonly propagator: TextMapPropagator | undefined;
  /** Share of route runs whose steps get spans (0 = none). */
  readonly stepSample: number;
  readonly recordContent: boolean;
}

/** An object with every one of `methods`. */
function withMethods(...methods: string[]): (value: unknown) => boolean {
  return (value) =>
    typeof value === "object" &&
    value !== null &&
    methods.every((method) => typeof (value as Record<string, unknown>)[method] === "function");
}

const OPTION_CHECKS = {
  tracerProvider: {
    type: "custom",
    expected: "a TracerProvider (with getTracer())",
    check: withMethods("getTracer"),
  },
  meterProvider: {
    type: "custom",
    expected: "a MeterProvider (with getMeter())",
    check: withMethods("getMeter"),
  },
  propagator: {
    type: "custom",
    expected: "a TextMapPropagator (with inject(), extract() and fields())",
    check: withMethods("inject", "extract", "fields"),
  },
  stepSpans: {
    type: "custom",
    expected: "true, false or { sample } (a number from 0 to 1)",
    check: (value) =>
      typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value)),
  },
  recordContent: { type: "boolean", default: false },
} as const satisfies OptionChecks;

/** The object form of `stepSpans`, checked under its own name (`stepSpans.sample`). */
const STEP_SAMPLE_CHECKS = {
  stepSpans: {
    type: "object",
    required: true,
    options: { sample: { type: "number", min: 0, max: 1, required: true } },
  },
} as const satisfies OptionChecks;

const SITE: OptionsSite = {
  where: "otelPlugin()",
  error: (message) => new OtelError("OTEL_OPTION_INVALID", message),
};

/** Checks `otelPlugin`'s options, naming the bad one, what it expects and what it found. */
export function resolveOtelOptions(options: unknown): ResolvedOtelOptions {
  const checked = checkOptions(OPTION_CHECKS, options === undefined ? {} : options, SITE);
  const stepSpans = checked.stepSpans;
  const stepSample =
    typeof stepSpans === "object"
      ? checkOptions(STEP_SAMPLE_CHECKS, { stepSpans }, SITE).stepSpans.sample
      : stepSpans === true
        ? 1
        : 0;
  return {
    tracerProvider: checked.tracerProvider as TracerProvider | undefined,
    meterProvider: checked.meterProvider as MeterProvider | undefined,
    propagator: checked.propagator as TextMapPropagator | undefined,
    stepSample,
    recordContent: checked.recordContent,
  };
}
