import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A metric reader that exports only when asked (`collect()`). */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The real SDK wired the way a user would: spans to memory, metrics on demand, W3C propagation. */
export interface TestSdk {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** The data points of one metric, by name. */
  points(name: string): Promise<Array<DataPoint<number | Histogram>>>;
  shutdown(): Promise<void>;
}

/**
 * Registers the context manager and the W3C propagator globally (the OpenTelemetry API has one of
 * each per process), and returns providers to hand to `otelPlugin({ tracerProvider, meterProvider })`
 * — or, with `global: true`, registers those globally too. `propagator: false` registers no
 * propagator (the API's no-op one stays).
 */
export function startTestSdk(
  options: { global?: boolean; sampled?: boolean; propagator?: boolean } = {},
): TestSdk {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.disable();
  if (options.propagator !== false) propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(options.sampled === false && { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  if (options.global === true) {
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
  }
  return {
    tracerProvider,
    meterProvider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    async points(name) {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name === name)
            return metric.dataPoints as Array<DataPoint<number | Histogram>>;
        }
      }
      return [];
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** One span by name; throws listing the names there are when it is missing or not unique. */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) {
    throw new Error(
      `expected one span '${name}', found ${found.length} among: ${spans.map((span) => span.name).join(", ")}`,
    );
  }
  return found[0]!;
}

/** The id of a span's parent ('' for a root). */
export function parentOf(span: ReadableSpan): string {
  return span.parentSpanContext?.spanId ?? "";
}

/** The span tree as indented lines (`name (kind)`), children in start order: for readable failures. */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const byParent = new Map<string, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parent = ids.has(parentOf(span)) ? parentOf(span) : "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort(
      (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
    );
    for (const child of children) {
      lines.push(`${"  ".repeat(depth)}${child.name}`);
      walk(child.spanContext().spanId, depth + 1);
    }
  };
  walk("", 0);
  return lines.join("\n");
}
