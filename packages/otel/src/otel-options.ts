import type { MeterProvider, TextMapPropagator, TracerProvider } from "@opentelemetry/api";
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

const KNOWN = ["tracerProvider", "meterProvider", "propagator", "stepSpans", "recordContent"];

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

function fail(message: string): never {
  throw new OtelError("OTEL_OPTION_INVALID", `otelPlugin(): ${message}`);
}

function hasMethods(value: unknown, methods: readonly string[]): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return methods.every((method) => typeof record[method] === "function");
}

function stepSampleOf(value: unknown): number {
  if (value === undefined || value === false) return 0;
  if (value === true) return 1;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const sample = (value as { sample?: unknown }).sample;
    if (typeof sample === "number" && sample >= 0 && sample <= 1) return sample;
    fail(`'stepSpans.sample' must be a number from 0 to 1, found ${describe(sample)}`);
  }
  return fail(`'stepSpans' must be a boolean or { sample: number }, found ${describe(value)}`);
}

/** Checks `otelPlugin`'s options, naming the bad one, what it expects and what it found. */
export function resolveOtelOptions(options: unknown): ResolvedOtelOptions {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    fail(`expected an options object, found ${describe(options)}`);
  }
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.includes(key)) fail(`unknown option '${key}'; known options: ${KNOWN.join(", ")}`);
  }
  const { tracerProvider, meterProvider, propagator, recordContent } = record;
  if (tracerProvider !== undefined && !hasMethods(tracerProvider, ["getTracer"])) {
    fail(`'tracerProvider' must have a getTracer() method, found ${describe(tracerProvider)}`);
  }
  if (meterProvider !== undefined && !hasMethods(meterProvider, ["getMeter"])) {
    fail(`'meterProvider' must have a getMeter() method, found ${describe(meterProvider)}`);
  }
  if (propagator !== undefined && !hasMethods(propagator, ["inject", "extract", "fields"])) {
    fail(`'propagator' must have inject(), extract() and fields() methods, found ${describe(propagator)}`);
  }
  if (recordContent !== undefined && typeof recordContent !== "boolean") {
    fail(`'recordContent' must be a boolean, found ${describe(recordContent)}`);
  }
  return {
    tracerProvider: tracerProvider as TracerProvider | undefined,
    meterProvider: meterProvider as MeterProvider | undefined,
    propagator: propagator as TextMapPropagator | undefined,
    stepSample: stepSampleOf(record.stepSpans),
    recordContent: recordContent === true,
  };
}
