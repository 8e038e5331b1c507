import { context as contextApi, ROOT_CONTEXT, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
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

/** Sends chosen per message: a toD to one of two direct: routes, then a recipientList to both. */
async function dynamicContext(plugin?: Plugin): Promise<RouteContext> {
  const context = createContext();
  if (plugin !== undefined) context.use(plugin);
  await context.addRoutes((r) => {
    r.from("direct:start").toD("direct:${header.target}").recipientList("direct:a,direct:b");
    for (const name of ["a", "b"]) r.from(`direct:${name}`).setBody(() => name);
  });
  await context.start();
  return context;
}

const dynamicRequests = (context: RouteContext) => async (iterations: number) => {
  for (let index = 0; index < iterations; index++)
    await context.request("direct:start", index, { target: index % 2 === 0 ? "a" : "b" });
};

type Operation = (iterations: number) => Promise<void>;

/**
 * Creates, runs and stops a context of the same routes before the two measured ones, so neither
 * of them is the first of its shape in the process. The first context whose routes run gets code
 * the later ones do not: measured here, whichever of the two measured contexts was created
 * second ran about 5% slower (ratios 1.02–1.08 one way round, 0.94–0.97 the other), and with a
 * context made and run before both, 0.98–1.03.
 */
async function runThrowaway(
  shape: () => Promise<RouteContext>,
  operation: (context: RouteContext) => Operation,
): Promise<void> {
  const context = await shape();
  await operation(context)(1_000);
  await context.stop();
}

/**
 * `operation` with its CPU time (process.cpuUsage, user + system) per iteration kept for every
 * run after the warm-ups: a machine loaded by other work stretches wall-clock time much more
 * than the CPU time each side uses. `compareAll` runs each operation once per round.
 */
function cpuTimed(operation: Operation, warmups = 2): { run: Operation; median: () => number } {
  const samples: number[] = [];
  let runs = 0;
  return {
    run: async (iterations) => {
      const before = process.cpuUsage();
      await operation(iterations);
      const used = process.cpuUsage(before);
      if (runs++ >= warmups) samples.push(((used.user + used.system) * 1000) / iterations);
    },
    median: () => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN,
  };
}

function cpuNote(subject: { median: () => number }, baseline: { median: () => number }): string {
  const ratio = subject.median() / baseline.median();
  return `CPU time per message (process.cpuUsage, same rounds): ${subject.median().toFixed(0)} ns vs ${baseline.median().toFixed(0)} ns = ${ratio.toFixed(2)}×`;
}

/**
 * What tracing costs on the direct path (the `direct` benchmark's routes: four routes and four
 * sends per message): the same routes without the plugin, with `otelPlugin()` and no SDK
 * registered (and the same for sends chosen per message: toD and recipientList), with the SDK and a sampler that samples nothing (beside the floor of that: one
 * root span asked of the same SDK per message, no plugin), with the not-sampled decision made
 * upstream, and with every message sampled. Each row also gives the CPU time of both sides.
 */
export async function runOtelBench(options: BenchOptions): Promise<BenchRow[]> {
  const iterations = options.quick ? 10_000 : 100_000;
  const rounds = options.quick ? 4 : 15;
  const benchmark = "otel (direct shape: 4 routes, 4 sends per message)";
  await runThrowaway(directContext, requests);
  const plain = await directContext();
  const noSdk = await directContext(otelPlugin());
  // Without an SDK nothing touches the OpenTelemetry context: measured before one is registered.
  const noSdkCpu = cpuTimed(requests(noSdk));
  const plainCpu = cpuTimed(requests(plain));
  const [withPluginStats, plainStats] = await compareAll([noSdkCpu.run, plainCpu.run], iterations, rounds);
  await runThrowaway(dynamicContext, dynamicRequests);
  const dynamicPlain = await dynamicContext();
  const dynamicNoSdk = await dynamicContext(otelPlugin());
  const dynamicNoSdkCpu = cpuTimed(dynamicRequests(dynamicNoSdk));
  const dynamicPlainCpu = cpuTimed(dynamicRequests(dynamicPlain));
  const [dynamicNoSdkStats, dynamicPlainStats] = await compareAll(
    [dynamicNoSdkCpu.run, dynamicPlainCpu.run],
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
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const unsampled = await directContext(otelPlugin({ tracerProvider: off }));
  const sampled = await directContext(otelPlugin({ tracerProvider: on }));
  // The floor of any tracer asked for a root span per message: the same routes without the
  // plugin, with one span started (and ended) around each message by the same SDK.
  const floorTracer = off.getTracer("floor");
  const floorAttributes = {
    "routekit.route.id": "route1",
    "routekit.endpoint.uri": "direct:start",
    "messaging.system": "routekit",
    "messaging.destination.name": "start",
    "messaging.operation.type": "process",
  };
  const floor = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const span = floorTracer.startSpan(
        "process direct:start",
        { kind: SpanKind.CONSUMER, attributes: floorAttributes },
        ROOT_CONTEXT,
      );
      await plain.request("direct:start", index);
      span.end();
    }
  };
  const unsampledCpu = cpuTimed(requests(unsampled));
  const sampledCpu = cpuTimed(requests(sampled));
  const floorCpu = cpuTimed(floor);
  const plainAgainCpu = cpuTimed(requests(plain));
  const [unsampledStats, sampledStats, floorStats, plainAgainStats] = await compareAll(
    [unsampledCpu.run, sampledCpu.run, floorCpu.run, plainAgainCpu.run],
    [iterations, Math.max(1_000, iterations / 10), iterations, iterations],
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
  const upstreamCpu = cpuTimed(inside(requests(unsampled)));
  const plainInsideCpu = cpuTimed(inside(requests(plain)));
  const [upstreamStats, plainInsideStats] = await compareAll(
    [upstreamCpu.run, plainInsideCpu.run],
    iterations,
    rounds,
  );
  for (const context of [plain, noSdk, dynamicPlain, dynamicNoSdk, unsampled, sampled]) await context.stop();
  await on.shutdown();
  await off.shutdown();
  contextApi.disable();
  if (exporter.exported === 0) throw new Error("the sampled context exported no span");
  if (
    !withPluginStats ||
    !plainStats ||
    !dynamicNoSdkStats ||
    !dynamicPlainStats ||
    !unsampledStats ||
    !sampledStats ||
    !floorStats ||
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
        note: `no route or step is wrapped while no SDK is registered; ${cpuNote(noSdkCpu, plainCpu)}`,
      },
      (ratio) => ratio <= 1.05,
    ),
    rowOf(
      {
        benchmark: "otel (sends chosen per message: toD, then recipientList to 2 endpoints)",
        subject: "otelPlugin(), no SDK registered",
        baseline,
        baselineDescription:
          "a toD to one of two direct: routes and a recipientList to both, in a context without otelPlugin, in the same process and rounds",
        subjectStats: dynamicNoSdkStats,
        baselineStats: dynamicPlainStats,
        target: "≤ 1.05× no plugin",
        note: `each destination's send is left as it is (wrapSend returns it) while no SDK is registered; ${cpuNote(dynamicNoSdkCpu, dynamicPlainCpu)}`,
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
        note: `the SDK rows run with the AsyncLocalStorage context manager registered and in use, for both sides; sampling off = AlwaysOffSampler; ${cpuNote(unsampledCpu, plainAgainCpu)}`,
      },
      (ratio) => ratio <= 1.2,
    ),
    rowOf(
      {
        benchmark,
        subject: "SDK floor: no plugin, one AlwaysOff tracer.startSpan per message",
        baseline,
        baselineDescription,
        subjectStats: floorStats,
        baselineStats: plainAgainStats,
        target:
          "context (what asking the SDK's sampler for one root span per message costs, with no routekit code)",
        note: cpuNote(floorCpu, plainAgainCpu),
      },
      () => true,
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
        note: cpuNote(upstreamCpu, plainInsideCpu),
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
        note: `BatchSpanProcessor (what a production setup uses) with an exporter that counts and drops; ${cpuNote(sampledCpu, plainAgainCpu)}`,
      },
      () => true,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runOtelBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
