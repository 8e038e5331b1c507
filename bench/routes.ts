import { createContext, type RouteContext } from "@routekit/core";
import {
  type BenchOptions,
  type BenchRow,
  cpuSamples,
  cpuTimed,
  printRow,
  rowOf,
  type Stats,
  sampleAll,
  summarise,
} from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

/** How many routes each context holds. */
const ROUTE_COUNTS = [1, 10, 100, 1000] as const;

/** The two steps of route `index`: distinct closures per route, as each route's own code is. */
function stepsOf(index: number): Array<(message: PlainMessage) => void> {
  return [
    (message) => {
      message.headers.route = index;
    },
    (message) => {
      message.body = (message.body as number) + index;
    },
  ];
}

/** A context holding `count` routes `direct:route0`…, each of the two steps of its index. */
async function contextOf(count: number): Promise<RouteContext> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    for (let index = 0; index < count; index++) {
      const [first, second] = stepsOf(index);
      r.from(`direct:route${index}`).process(first!).process(second!);
    }
  });
  await context.start();
  return context;
}

/** Requests the routes in turn (route `index % spread`), checking every reply. */
function spreadOver(context: RouteContext, spread: number) {
  const uris = Array.from({ length: spread }, (_, index) => `direct:route${index}`);
  return async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const route = index % spread;
      const reply = await context.request(uris[route]!, index);
      if (reply !== index + route) throw new Error(`route ${route}: got ${String(reply)} for ${index}`);
    }
  };
}

/**
 * The baseline: a Map from name to a handler that runs the same two step functions on a fresh
 * plain message, the reply awaited once per message. No routekit object in it.
 */
function handDispatch(count: number, spread: number) {
  const handlers = new Map<string, (message: PlainMessage) => unknown>();
  for (let index = 0; index < count; index++) {
    const [first, second] = stepsOf(index);
    handlers.set(`route${index}`, (message) => {
      first!(message);
      second!(message);
      return message.body;
    });
  }
  const names = Array.from({ length: spread }, (_, index) => `route${index}`);
  return async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const route = index % spread;
      const reply = await handlers.get(names[route]!)!({ body: index, headers: {} });
      if (reply !== index + route) throw new Error(`route ${route}: got ${String(reply)} for ${index}`);
    }
  };
}

const BASELINE = "hand-written Map dispatch";
const BASELINE_DESCRIPTION =
  "a Map from route name to a plain function running the same two step functions on a fresh { body, headers } object, the names requested in the same order, the reply awaited once per message";

/**
 * Many routes: contexts of 1, 10, 100 and 1,000 routes of two process steps each, with every
 * message to one route and with the traffic spread round-robin over all of them, beside a
 * hand-written Map dispatch over as many plain functions. All sides run in the same rounds, so
 * the claim (spread over 1,000 routes against one route of one) pairs runs of one round.
 */
export async function runRoutesBench(options: BenchOptions): Promise<BenchRow[]> {
  const contexts = new Map<number, RouteContext>();
  for (const count of ROUTE_COUNTS) contexts.set(count, await contextOf(count));
  const largest = ROUTE_COUNTS[ROUTE_COUNTS.length - 1]!;
  try {
    const operations = [
      ...ROUTE_COUNTS.map((count) => spreadOver(contexts.get(count)!, count)),
      ...ROUTE_COUNTS.map((count) => handDispatch(count, count)),
      spreadOver(contexts.get(largest)!, 1),
      handDispatch(largest, 1),
    ];
    const iterations = options.quick ? 20_000 : 200_000;
    const timed = cpuTimed(operations);
    const samples = await sampleAll(timed.timed, iterations, options.quick ? 3 : 12);
    const stats = samples.map(summarise);
    const cpu = cpuSamples(timed.cpu, 2).map(summarise);
    const rows: BenchRow[] = ROUTE_COUNTS.map((count, position) =>
      rowOf(
        {
          benchmark: `many routes: traffic spread round-robin over ${count.toLocaleString("en-US")} route${count === 1 ? "" : "s"} (2 process steps each)`,
          subject: "routekit await request",
          baseline: BASELINE,
          baselineDescription: BASELINE_DESCRIPTION,
          subjectStats: stats[position]!,
          baselineStats: stats[ROUTE_COUNTS.length + position]!,
          target: "context (no target): the cost of many routes beside a Map dispatch",
        },
        () => true,
      ),
    );
    const claim = (clock: string, spread: Stats, one: Stats): BenchRow =>
      rowOf(
        {
          benchmark: `many routes: traffic spread over ${largest.toLocaleString("en-US")} routes against one route, ${clock}`,
          subject: `routekit, spread over ${largest.toLocaleString("en-US")} routes`,
          baseline: "routekit, a context of one route",
          baselineDescription:
            "routekit against itself (a relative claim): the same request to the only route of a one-route context",
          subjectStats: spread,
          baselineStats: one,
          target: "≤ 1.5× the one-route cost",
        },
        (ratio) => ratio <= 1.5,
      );
    rows.push(
      rowOf(
        {
          benchmark: `many routes: every message to one route of ${largest.toLocaleString("en-US")}`,
          subject: "routekit await request",
          baseline: BASELINE,
          baselineDescription: BASELINE_DESCRIPTION,
          subjectStats: stats[ROUTE_COUNTS.length * 2]!,
          baselineStats: stats[ROUTE_COUNTS.length * 2 + 1]!,
          target: "context (no target): one route among many",
        },
        () => true,
      ),
      claim("wall clock", stats[ROUTE_COUNTS.length - 1]!, stats[0]!),
      claim("CPU time", cpu[ROUTE_COUNTS.length - 1]!, cpu[0]!),
    );
    return rows;
  } finally {
    for (const context of contexts.values()) await context.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runRoutesBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
