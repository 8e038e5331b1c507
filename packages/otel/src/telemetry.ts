import {
  type Counter,
  createNoopMeter,
  type Histogram,
  type Meter,
  metrics,
  ProxyTracerProvider,
  propagation,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { DURATION_BUCKETS, GEN_AI_METRIC, ROUTEKIT, TOKEN_BUCKETS } from "./attribute-names.js";
import type { TraitsOf } from "./endpoint-names.js";
import type { ResolvedOtelOptions } from "./otel-options.js";

/** The instrumentation scope of every span and metric. */
export const SCOPE_NAME = "@routekit/otel";
export const SCOPE_VERSION = "0.1.0";

// The API's no-op provider: what a proxy delegates to while no SDK is registered.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter().constructor;

/** What the plugin propagates with when no propagator is given or registered. */
const W3C_TRACE_CONTEXT = new W3CTraceContextPropagator();

/** The instruments, created when the context starts with a real meter. */
export interface Instruments {
  readonly exchanges: Counter;
  readonly failures: Counter;
  readonly routeDuration: Histogram;
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
}

function createInstruments(meter: Meter): Instruments {
  return {
    exchanges: meter.createCounter(ROUTEKIT.exchangesMetric, {
      description: "Exchanges that entered a route",
      unit: "{exchange}",
    }),
    failures: meter.createCounter(ROUTEKIT.failuresMetric, {
      description: "Exchanges that left a route with an error",
      unit: "{exchange}",
    }),
    routeDuration: meter.createHistogram(ROUTEKIT.durationMetric, {
      description: "Time an exchange spent in a route",
      unit: "s",
    }),
    tokenUsage: meter.createHistogram(GEN_AI_METRIC.tokenUsage, {
      description: "Number of input and output tokens used",
      unit: "{token}",
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    operationDuration: meter.createHistogram(GEN_AI_METRIC.operationDuration, {
      description: "GenAI operation duration",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
}

/** True when `provider` records: anything but the API's no-op provider (or a proxy still delegating to it). */
function records(provider: TracerProvider): boolean {
  if (provider instanceof ProxyTracerProvider) return provider.getDelegate() !== NOOP_TRACER_PROVIDER;
  return provider !== NOOP_TRACER_PROVIDER;
}

/**
 * What every span and metric of one plugin goes through: the tracer, the propagator, the
 * instruments, and the checks that keep routes untouched while no SDK is registered. The global
 * providers are read when routes are added (`observed`) and when the context starts (`refresh`):
 * an SDK registered later is not seen.
 */
export class Telemetry {
  readonly recordContent: boolean;
  readonly stepSample: number;
  readonly #options: ResolvedOtelOptions;
  tracer: Tracer;
  /** True when spans go somewhere: a provider was given, or an SDK is registered globally. */
  tracing = false;
  /** Set when the context starts and a real meter is registered; undefined until then. */
  instruments: Instruments | undefined = undefined;

  constructor(options: ResolvedOtelOptions) {
    this.#options = options;
    this.recordContent = options.recordContent;
    this.stepSample = options.stepSample;
    this.tracer = this.#resolveTracer();
    this.propagator = this.#resolvePropagator();
  }

  /**
   * The propagator: the one given, else the global one (`propagation`) when one is registered,
   * else W3C trace context (read when routes are added and when the context starts).
   */
  propagator: Pick<TextMapPropagator, "inject" | "extract" | "fields">;
  /** True when no propagator was given or registered, so the plugin's own W3C one is in use. */
  ownPropagator = false;
  /** What endpoints' components declare (`context.componentTraits`), set when the plugin is installed. */
  traitsOf: TraitsOf = () => undefined;

  /**
   * Whether a route added now needs wrapping: spans or metrics have somewhere to go. When not,
   * the interceptor leaves the route and its steps exactly as compiled.
   */
  observed(): boolean {
    this.tracer = this.#resolveTracer();
    this.propagator = this.#resolvePropagator();
    return this.tracing || this.#meter() !== undefined;
  }

  /** Reads the providers again when the context starts, and makes the instruments. */
  refresh(): void {
    this.tracer = this.#resolveTracer();
    this.propagator = this.#resolvePropagator();
    const meter = this.#meter();
    this.instruments = meter === undefined ? undefined : createInstruments(meter);
  }

  /** Routes added while nothing was registered, so left as compiled (see `unobservedWarning`). */
  readonly unobserved: string[] = [];

  /**
   * What to tell the user when the context starts with a provider registered now that was not
   * when some routes were added: those routes stay untraced and unmeasured. Undefined when none.
   */
  unobservedWarning(): string | undefined {
    if (this.unobserved.length === 0 || (!this.tracing && this.instruments === undefined)) return undefined;
    const routes = this.unobserved.map((id) => `'${id}'`).join(", ");
    return `otelPlugin: route(s) ${routes} were added before a tracer or meter provider was registered and get no spans or metrics; register the OpenTelemetry SDK before context.addRoutes()`;
  }

  #meter(): Meter | undefined {
    const meter = (this.#options.meterProvider ?? metrics.getMeterProvider()).getMeter(
      SCOPE_NAME,
      SCOPE_VERSION,
    );
    return meter instanceof NOOP_METER ? undefined : meter;
  }

  /**
   * The given propagator, else the global one, else (the API's no-op propagator, whose `fields()`
   * is empty, is all that is registered) W3C trace context, so traces cross routekit's own hops
   * (brokers, HTTP) without setup. The global propagator is left as it is.
   */
  #resolvePropagator(): Pick<TextMapPropagator, "inject" | "extract" | "fields"> {
    const given = this.#options.propagator;
    this.ownPropagator = given === undefined && propagation.fields().length === 0;
    if (given !== undefined) return given;
    return this.ownPropagator ? W3C_TRACE_CONTEXT : propagation;
  }

  #resolveTracer(): Tracer {
    const provider: TracerProvider = this.#options.tracerProvider ?? trace.getTracerProvider();
    this.tracing = this.#options.tracerProvider !== undefined || records(provider);
    return provider.getTracer(SCOPE_NAME, SCOPE_VERSION);
  }
}
