import { consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf, summarise } from "./harness.js";

const WARMUPS = 2;

/** The direct bench's routes: direct:start → three direct: sub-routes with a log step at level off → mock. */
async function directContext(withConsole: boolean): Promise<RouteContext> {
  const context = createContext();
  // The console serves its page on a free loopback port; no browser connects during the bench.
  if (withConsole) context.use(consolePlugin({ port: 0 }));
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
 * alternating rounds; in wall-clock time and in the process's CPU time.
 */
export async function runConsoleBench(options: BenchOptions): Promise<BenchRow[]> {
  const watched = await directContext(true);
  const plain = await directContext(false);
  const requests = (context: RouteContext) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
  };
  const iterations = options.quick ? 20_000 : 200_000;
  const cpu = { watched: [] as number[], plain: [] as number[] };
  const [watchedStats, plainStats] = await compareAll(
    [withCpuTime(requests(watched), cpu.watched), withCpuTime(requests(plain), cpu.plain)],
    iterations,
    options.quick ? 4 : 15,
    WARMUPS,
  );
  await watched.stop();
  await plain.stop();
  if (watchedStats === undefined || plainStats === undefined) throw new Error("missing stats");
  const fields = {
    benchmark: "console (direct bench, no browser connected)",
    subject: "with consolePlugin()",
    baseline: "without the console",
    baselineDescription:
      "routekit itself: the direct bench's routes in a context without the console (a relative claim)",
    target: "≤ 1.10× without the console",
  };
  const met = (ratio: number) => ratio <= 1.1;
  return [
    rowOf({ ...fields, subjectStats: watchedStats, baselineStats: plainStats }, met),
    rowOf(
      {
        ...fields,
        benchmark: "console (direct bench, no browser connected), CPU time",
        baselineDescription: `${fields.baselineDescription}; CPU time of the bench process (process.cpuUsage) per request`,
        // The warm-up rounds' runs are left out, as from the wall-clock stats.
        subjectStats: summarise(cpu.watched.slice(WARMUPS)),
        baselineStats: summarise(cpu.plain.slice(WARMUPS)),
      },
      met,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runConsoleBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
