import { type ConsoleRecordMode, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf, summarise } from "./harness.js";

const WARMUPS = 2;

/** The direct bench's routes: direct:start → three direct: sub-routes with a log step at level off → mock. */
async function directContext(mode: "none" | ConsoleRecordMode): Promise<RouteContext> {
  const context = createContext();
  // The console serves its page on a free loopback port; no browser connects during the bench.
  if (mode !== "none") context.use(consolePlugin({ port: 0, record: mode }));
  await context.addRoutes((r) => {
    r.from("direct:start").to("direct:a").to("direct:b").to("direct:c").to("mock:result?retainFirst=0");
    for (const name of ["a", "b", "c"]) r.from(`direct:${name}`).to(`log:${name}?level=off`);
  });
  await context.start();
  return context;
}

/**
 * `operation`, also noting the CPU time of this process (user + system, `process.cpuUsage()`) per
 * iteration of each run into `cpu` — less disturbed by other processes than the wall clock.
 */
function withCpuTime(
  operation: (iterations: number) => Promise<void>,
  cpu: number[],
): (iterations: number) => Promise<void> {
  return async (iterations) => {
    const before = process.cpuUsage();
    await operation(iterations);
    const used = process.cpuUsage(before);
    cpu.push(((used.user + used.system) * 1000) / iterations);
  };
}

/**
 * The cost of an installed console with no browser connected: the direct bench's request, once in
 * a context with `consolePlugin()` (it records step detail only while a page is connected, so no
 * step is wrapped and no step event listened to) and once in the same context without it, in
 * alternating rounds; in wall-clock time and in the process's CPU time. Then, the same way, a
 * context that records as it would with a page open (`record: "always"`): what watching costs,
 * with no target.
 */
export async function runConsoleBench(options: BenchOptions): Promise<BenchRow[]> {
  const requests = (context: RouteContext) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
  };
  const iterations = options.quick ? 20_000 : 200_000;
  const rounds = options.quick ? 4 : 15;
  /** `subject` against a context without the console, in alternating rounds; wall clock and CPU. */
  const against = async (subject: RouteContext) => {
    const plain = await directContext("none");
    const cpu = { subject: [] as number[], plain: [] as number[] };
    const [subjectStats, plainStats] = await compareAll(
      [withCpuTime(requests(subject), cpu.subject), withCpuTime(requests(plain), cpu.plain)],
      iterations,
      rounds,
      WARMUPS,
    );
    await subject.stop();
    await plain.stop();
    if (subjectStats === undefined || plainStats === undefined) throw new Error("missing stats");
    return { subjectStats, plainStats, cpu };
  };
  // A context of the same routes made, run and stopped first, so neither compared context is the
  // first of its shape in the process: that one gets code later ones do not, and whichever of two
  // contexts was made second ran about 5% slower (measured in bench/otel.ts).
  const throwaway = await directContext("none");
  await requests(throwaway)(1_000);
  await throwaway.stop();
  // Two comparisons one after the other, so the idle console's runs never follow a recording
  // run and pay for the garbage its records leave in the old generation.
  const idle = await against(await directContext("while-connected"));
  const recorded = await against(await directContext("always"));
  // The warm-up rounds' runs are left out of the CPU stats, as from the wall-clock stats.
  const cpuStats = (samples: number[]) => summarise(samples.slice(WARMUPS));
  const fields = {
    benchmark: "console (direct bench, no browser connected)",
    subject: "with consolePlugin()",
    baseline: "without the console",
    baselineDescription:
      "routekit itself: the direct bench's routes in a context without the console (a relative claim)",
    target: "≤ 1.10× without the console",
  };
  const met = (ratio: number) => ratio <= 1.1;
  const cpuFields = {
    benchmark: `${fields.benchmark}, CPU time`,
    baselineDescription: `${fields.baselineDescription}; CPU time of the bench process (process.cpuUsage) per request`,
  };
  const recordingFields = {
    benchmark: "console while recording (direct bench, record: always)",
    subject: 'with consolePlugin({ record: "always" })',
    target: "context (no target): what an open page costs",
  };
  const noClaim = () => true;
  return [
    rowOf({ ...fields, subjectStats: idle.subjectStats, baselineStats: idle.plainStats }, met),
    rowOf(
      {
        ...fields,
        ...cpuFields,
        subjectStats: cpuStats(idle.cpu.subject),
        baselineStats: cpuStats(idle.cpu.plain),
      },
      met,
    ),
    rowOf(
      {
        ...fields,
        ...recordingFields,
        subjectStats: recorded.subjectStats,
        baselineStats: recorded.plainStats,
      },
      noClaim,
    ),
    rowOf(
      {
        ...fields,
        ...cpuFields,
        ...recordingFields,
        benchmark: `${recordingFields.benchmark}, CPU time`,
        subjectStats: cpuStats(recorded.cpu.subject),
        baselineStats: cpuStats(recorded.cpu.plain),
      },
      noClaim,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runConsoleBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
