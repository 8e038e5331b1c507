import { createContext, type Exchange } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";

const MEMORY_SAMPLE_EVERY = 4096;
/** Producers keep this many sends in flight (awaited together), for both direct and seda. */
const WINDOW = 64;

/** Peak heap seen while an operation ran, sampled every few thousand messages by the producer. */
class HeapPeak {
  peakBytes = 0;
  sample(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.peakBytes) this.peakBytes = used;
  }
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/**
 * Throughput of seda: with 1 and 4 concurrent consumers beside direct: on the same route body
 * (one synchronous step, then mock: retaining nothing). The seda producer sends InOnly and does not
 * wait for the consumer; a run ends when the mock counted every message. Peak heap goes in `note`.
 */
export async function runSedaBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext({ logLevel: "warn" });
  let processed = 0;
  let sent = 0;
  const step = (exchange: Exchange) => {
    processed++;
    exchange.headers.seen = true;
  };
  await context.addRoutes((r) => {
    r.from("direct:x").process(step).to("mock:direct?retainFirst=0");
    r.from("seda:one?concurrentConsumers=1").process(step).to("mock:one?retainFirst=0");
    r.from("seda:four?concurrentConsumers=4").process(step).to("mock:four?retainFirst=0");
  });
  await context.start();

  const heaps = { direct: new HeapPeak(), one: new HeapPeak(), four: new HeapPeak() };
  const direct = async (iterations: number) => {
    const mock = context.endpoint("mock:direct?retainFirst=0");
    mock.reset();
    mock.expectedMessageCount(iterations);
    for (let index = 0; index < iterations; index += WINDOW) {
      const window: Promise<unknown>[] = [];
      for (let offset = 0; offset < WINDOW && index + offset < iterations; offset++) {
        window.push(context.request("direct:x", index + offset));
      }
      await Promise.all(window);
      if (index % MEMORY_SAMPLE_EVERY === 0) heaps.direct.sample();
    }
    await mock.assertIsSatisfied(30_000);
    sent += iterations;
  };
  const seda = (name: "one" | "four") => async (iterations: number) => {
    const mock = context.endpoint(`mock:${name}?retainFirst=0`);
    mock.reset();
    mock.expectedMessageCount(iterations);
    for (let index = 0; index < iterations; index += WINDOW) {
      const window: Promise<void>[] = [];
      for (let offset = 0; offset < WINDOW && index + offset < iterations; offset++) {
        window.push(context.send(`seda:${name}`, index + offset));
      }
      await Promise.all(window);
      if (index % MEMORY_SAMPLE_EVERY === 0) heaps[name].sample();
    }
    await mock.assertIsSatisfied(30_000);
    sent += iterations;
  };

  const iterations = options.quick ? 20_000 : 200_000;
  const runs = options.quick ? 3 : 9;
  const before = process.memoryUsage().heapUsed;
  const [directStats, oneStats, fourStats] = await compareAll(
    [direct, seda("one"), seda("four")],
    iterations,
    runs,
  );
  await context.stop();
  if (processed !== sent) throw new Error(`processed ${processed} messages, sent ${sent}`);
  if (directStats === undefined || oneStats === undefined || fourStats === undefined)
    throw new Error("missing stats");

  const benchmark = `seda throughput (${iterations.toLocaleString("en-US")} messages per run)`;
  const target = "≥ 50% of direct throughput (ratio ≤ 2)";
  const memory = (peak: HeapPeak) => `peak heap ${megabytes(peak.peakBytes)}`;
  const baseNote = `heap before ${megabytes(before)}; direct ${memory(heaps.direct)}`;
  return [
    rowOf(
      {
        benchmark,
        subject: "seda, 1 consumer",
        baseline: "direct request",
        baselineDescription:
          "routekit against itself (a relative claim): the same route body behind direct:, requested 64 at a time",
        subjectStats: oneStats,
        baselineStats: directStats,
        target,
        note: `1 consumer ${memory(heaps.one)}; ${baseNote}`,
      },
      (ratio) => ratio <= 2,
    ),
    rowOf(
      {
        benchmark,
        subject: "seda, 4 consumers",
        baseline: "direct request",
        baselineDescription:
          "routekit against itself (a relative claim): the same route body behind direct:, requested 64 at a time",
        subjectStats: fourStats,
        baselineStats: directStats,
        target,
        note: `4 consumers ${memory(heaps.four)}; ${baseNote}`,
      },
      (ratio) => ratio <= 2,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runSedaBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
