import { consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";

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
 * The cost of an installed console with no browser connected: the direct bench's request, once in
 * a context with `consolePlugin()` (counters on every step, a timeline for at most
 * `recordPerSecond` exchanges) and once in the same context without it, in alternating rounds.
 */
export async function runConsoleBench(options: BenchOptions): Promise<BenchRow[]> {
  const watched = await directContext(true);
  const plain = await directContext(false);
  const requests = (context: RouteContext) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
  };
  const iterations = options.quick ? 20_000 : 200_000;
  const [watchedStats, plainStats] = await compareAll(
    [requests(watched), requests(plain)],
    iterations,
    options.quick ? 4 : 15,
  );
  await watched.stop();
  await plain.stop();
  if (watchedStats === undefined || plainStats === undefined) throw new Error("missing stats");
  return [
    rowOf(
      {
        benchmark: "console (direct bench, no browser connected)",
        subject: "with consolePlugin()",
        baseline: "without the console",
        baselineDescription:
          "routekit itself: the direct bench's routes in a context without the console (a relative claim)",
        subjectStats: watchedStats,
        baselineStats: plainStats,
        target: "≤ 1.10× without the console",
      },
      (ratio) => ratio <= 1.1,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runConsoleBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
