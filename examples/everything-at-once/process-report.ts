// What each process of the example shares: the OpenTelemetry SDK set up as the observability guide
// sets it up (spans kept in memory), a count of the exchanges that failed, and the stop on SIGTERM
// that releases everything and then prints what the process saw as one line of JSON.
import { context as otelContext, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { RouteContext } from "@routekit/core";

/** The prefix of the lines a process prints for the test to read (`@@ {"ready": ...}`). */
export const REPORT_MARK = "@@ ";

/** A finished span, as the test reads it. */
export interface SpanRecord {
  readonly name: string;
  readonly kind: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly routeId: unknown;
  readonly error: string | undefined;
}

/** An exchange that ended failed (the core's `exchange-failed` event). */
export interface FailureRecord {
  readonly routeId: string;
  readonly error: string;
}

/** What a process prints last, after everything it started was released. */
export interface ProcessReport {
  readonly spans: readonly SpanRecord[];
  readonly failures: readonly FailureRecord[];
  /** Anything the process adds (the worker: its completed groups). */
  readonly details: unknown;
}

/** Prints one line of JSON the test picks out of the process's output. */
export function printForTest(value: unknown): void {
  process.stdout.write(`${REPORT_MARK}${JSON.stringify(value)}\n`);
}

/** The SDK of one process: where its spans go. */
export interface Tracing {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
}

/** The SDK, set up once per process before the context starts, as the observability guide does. */
export function startTracing(): Tracing {
  otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(tracerProvider);
  return { exporter, tracerProvider };
}

/** Every exchange of `context` that ends failed, from the moment this is called. */
export function recordFailures(context: RouteContext): FailureRecord[] {
  const failures: FailureRecord[] = [];
  context.events.on("exchange-failed", (event) => {
    failures.push({ routeId: event.routeId, error: event.error.message });
  });
  return failures;
}

/**
 * On SIGTERM: stop the context, run `release` (stores, other connections), shut the SDK down, then
 * print the report and let the process end by itself — nothing calls `process.exit`, so a handle
 * left open keeps the process alive: after `LEAK_BOUND_MS` it prints `{ leaked: [...] }` with
 * `process.getActiveResourcesInfo()`, and the test's bound on the exit fails.
 */
export function stopOnSigterm(options: {
  context: RouteContext;
  tracing: Tracing;
  release: () => Promise<void>;
  failures: readonly FailureRecord[];
  details: () => unknown;
}): void {
  const { context, tracing, release, failures, details } = options;
  process.once("SIGTERM", () => {
    void (async () => {
      try {
        await context.stop({ timeoutMs: 5000 });
        await release();
        const spans = tracing.exporter.getFinishedSpans().map(toRecord);
        await tracing.tracerProvider.shutdown();
        otelContext.disable();
        printForTest({ report: { spans, failures, details: details() } satisfies ProcessReport });
        // Everything is released: the process ends by itself. Still alive after the bound, it says
        // what keeps it alive (this timer does not: it is unref'd).
        setTimeout(() => {
          printForTest({ leaked: process.getActiveResourcesInfo().filter((name) => !STDIO.has(name)) });
        }, LEAK_BOUND_MS).unref();
      } catch (error) {
        console.error("stopping failed:", error);
        process.exitCode = 1;
      }
    })();
  });
}

/** How long a process may take to end after its report before it names what keeps it alive. */
export const LEAK_BOUND_MS = 5000;

/** The handles of the process's own stdin, stdout and stderr (pipes to the test), not the program's. */
const STDIO = new Set(["PipeWrap", "TTYWrap"]);

const KINDS: Record<number, string> = {
  [SpanKind.INTERNAL]: "internal",
  [SpanKind.SERVER]: "server",
  [SpanKind.CLIENT]: "client",
  [SpanKind.PRODUCER]: "producer",
  [SpanKind.CONSUMER]: "consumer",
};

function toRecord(span: ReadableSpan): SpanRecord {
  return {
    name: span.name,
    kind: KINDS[span.kind] ?? String(span.kind),
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    routeId: span.attributes["routekit.route.id"],
    error: span.status.code === 2 ? (span.status.message ?? "error") : undefined,
  };
}
