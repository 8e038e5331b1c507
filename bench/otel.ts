import { context as contextApi, ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { createContext, type Plugin, type RouteContext } from "@routekit/core";
import { otelPlugin } from "@routekit/otel";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";

/** An exporter that counts and drops: the sampled row prices making spans, not shipping them. */
class CountingExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.exported += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

/** The direct benchmark's routes (direct:start → three direct: sub-routes with a log:off step → mock). */
async function directContext(plugin?: Plugin): Promise<RouteContext> {
  const context = createContext();
  if (plugin !== undefined) context.use(plugin);
  await context.addRoutes((r) => {
    r.from("direct:start").to("direct:a").to("direct:b").to("direct:c").to("mock:result?retainFirst=0");
    for (const name of ["a", "b", "c"]) r.from(`direct:${name}`).to(`log:${name}?level=off`);
  });
  await context.start();
  return context;
}

const requests = (context: RouteContext) => async (iterations: number) => {
  for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
};

/**
 * What tracing costs on the direct path (the `direct` benchmark's routes: four routes and four
 * sends per message): the same routes without the plugin, with `otelPlugin()` and no SDK
 * registered, with the SDK and a sampler that samples nothing, and with every message sampled.
 */
export async function runOtelBench(options: BenchOptions): Promise<BenchRow[]> {
  const iterations = options.quick ? 10_000 : 100_000;
  const rounds = options.quick ? 4 : 15;
  const benchmark = "otel (direct shape: 4 routes, 4 sends per message)";
  const plain = await directContext();
  const noSdk = await directContext(otelPlugin());
  // Without an SDK nothing touches the OpenTelemetry context: measured before one is registered.
  const [withPluginStats, plainStats] = await compareAll(
    [requests(noSdk), requests(plain)],
    iterations,
    rounds,
  );

  // An SDK's context manager tracks every promise once it is used (AsyncLocalStorage): the
  // baseline pays that too, as it would in a process where anything traces.
  contextApi.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  await contextApi.with(ROOT_CONTEXT, () => Promise.resolve());
  const off = new BasicTracerProvider({ sampler: new AlwaysOffSampler() });
  const exporter = new CountingExporter();
  const on = new BasicTracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const unsampled = await directContext(otelPlugin({ tracerProvider: off }));
  const sampled = await directContext(otelPlugin({ tracerProvider: on }));
  const [unsampledStats, sampledStats, plainAgainStats] = await compareAll(
    [requests(unsampled), requests(sampled), requests(plain)],
    [iterations, Math.max(1_000, iterations / 10), iterations],
    rounds,
  );
  // The same with the not-sampled decision made upstream (an instrumented server or consumer
  // before routekit): both sides run inside that context.
  const upstream = trace.setSpan(
    ROOT_CONTEXT,
    trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.NONE,
    }),
  );
  const inside = (operation: (iterations: number) => Promise<void>) => (iterations: number) =>
    contextApi.with(upstream, () => operation(iterations));
  const [upstreamStats, plainInsideStats] = await compareAll(
    [inside(requests(unsampled)), inside(requests(plain))],
    iterations,
    rounds,
  );
  for (const context of [plain, noSdk, unsampled, sampled]) await context.stop();
  await on.shutdown();
  await off.shutdown();
  contextApi.disable();
  if (exporter.exported === 0) throw new Error("the sampled context exported no span");
  if (
    !withPluginStats ||
    !plainStats ||
    !unsampledStats ||
    !sampledStats ||
    !plainAgainStats ||
    !upstreamStats ||
    !plainInsideStats
  )
    throw new Error("missing stats");
  const baseline = "same routes, no plugin";
  const baselineDescription =
    "the direct benchmark's routes in a context without otelPlugin, in the same process and rounds";
  return [
    rowOf(
      {
        benchmark,
        subject: "otelPlugin(), no SDK registered",
        baseline,
        baselineDescription,
        subjectStats: withPluginStats,
        baselineStats: plainStats,
        target: "≤ 1.05× no plugin",
      },
      (ratio) => ratio <= 1.05,
    ),
    rowOf(
      {
        benchmark,
        subject: "otelPlugin(), SDK, sampling off (root span per message)",
        baseline,
        baselineDescription,
        subjectStats: unsampledStats,
        baselineStats: plainAgainStats,
        target: "≤ 1.20× no plugin",
        note: "the SDK rows run with the AsyncLocalStorage context manager registered and in use, for both sides; sampling off = AlwaysOffSampler",
      },
      (ratio) => ratio <= 1.2,
    ),
    rowOf(
      {
        benchmark,
        subject: "otelPlugin(), SDK, not sampled upstream",
        baseline,
        baselineDescription,
        subjectStats: upstreamStats,
        baselineStats: plainInsideStats,
        target: "context (both sides inside a not-sampled span's context: no span is asked of the SDK)",
      },
      () => true,
    ),
    rowOf(
      {
        benchmark,
        subject: "otelPlugin(), SDK, every message sampled (9 spans)",
        baseline,
        baselineDescription,
        subjectStats: sampledStats,
        baselineStats: plainAgainStats,
        target: "reported (the cost of 9 recorded spans per message, exporter dropping them)",
      },
      () => true,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runOtelBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
