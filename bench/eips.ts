import { createContext, type Exchange } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

interface Order {
  kind: "book" | "other";
  customer: string;
  items: number[];
}

const ITEMS = [3, 5, 8, 13, 21];
const CUSTOMERS = ["ada", "grace", "linus", "barbara"];
const orderOf = (index: number): Order => ({
  kind: index % 4 === 0 ? "other" : "book",
  customer: CUSTOMERS[index % CUSTOMERS.length]!,
  items: ITEMS,
});

/**
 * choice → split (with an aggregation strategy) → aggregate by customer (completion size 10),
 * beside the same logic written by hand with a Map of open groups over a plain message, awaited
 * once per message. Predicates and expressions are functions on both sides, so the row measures
 * the engine, not the expression language.
 */
export async function runEipsBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext();
  let completed = 0;
  await context.addRoutes((r) => {
    r.from<Order>("direct:eips")
      .choice((c) =>
        c
          .when(
            (exchange) => (exchange.body as Order).kind === "book",
            (route) =>
              route.split(
                (exchange) => (exchange.body as Order).items,
                (part) =>
                  part.process((exchange) => {
                    exchange.body = (exchange.body as number) * 2;
                  }),
                {
                  aggregate: (previous: Exchange<number> | undefined, next: Exchange<number>) => {
                    if (previous === undefined) return next;
                    previous.body += next.body;
                    return previous;
                  },
                },
              ),
          )
          .otherwise((route) => route.setBody(() => 0)),
      )
      .aggregate((exchange) => exchange.headers.customer, {
        strategy: (previous: Exchange<number> | undefined, next: Exchange) => {
          if (previous === undefined) return next as Exchange<number>;
          previous.body += next.body as number;
          return previous;
        },
        completionSize: 10,
      })
      .process(() => {
        completed++;
      });
  });
  await context.start();

  let handCompleted = 0;
  const groups = new Map<string, { total: number; size: number }>();
  const handWritten = (message: PlainMessage<Order>): number => {
    const order = message.body;
    let total = 0;
    if (order.kind === "book") {
      for (const item of order.items) total += item * 2;
    }
    const customer = message.headers.customer as string;
    const group = groups.get(customer) ?? { total: 0, size: 0 };
    group.total += total;
    group.size++;
    if (group.size === 10) {
      groups.delete(customer);
      handCompleted++;
    } else groups.set(customer, group);
    return total;
  };

  const routed = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      await context.request("direct:eips", orderOf(index), { customer: CUSTOMERS[index % CUSTOMERS.length] });
    }
  };
  const baseline = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      await handWritten({ body: orderOf(index), headers: { customer: CUSTOMERS[index % CUSTOMERS.length] } });
    }
  };
  const iterations = options.quick ? 4_000 : 40_000;
  // More messages per run for the cheaper baseline, so both timed runs last about as long.
  const [routedStats, baselineStats] = await compareAll(
    [routed, baseline],
    [iterations, iterations * 4],
    options.quick ? 4 : 10,
  );
  await context.stop();
  if (completed === 0 || handCompleted === 0) throw new Error("an aggregation never completed");
  if (routedStats === undefined || baselineStats === undefined) throw new Error("missing stats");
  return [
    rowOf(
      {
        benchmark: "choice + split + aggregate",
        subject: "routekit route",
        baseline: "hand-written + await",
        baselineDescription:
          "the same branch, item loop and Map of open groups on a plain { body, headers } object, awaited once per message",
        subjectStats: routedStats,
        baselineStats: baselineStats,
        target: "context (no target)",
      },
      () => true,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runEipsBench({ quick: process.argv.includes("--quick") })) printRow(row);
}
