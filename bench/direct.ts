import { createContext } from "@routekit/core";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

/**
 * Camel's DirectConcurrentTest shape on one core: request to direct:start → three direct:
 * sub-routes, each with a log step at level off → mock:result retaining nothing. Beside it, what a
 * user would write without routekit: a function chain over a plain message object, once bare
 * (synchronous) and once with one await per message, as a caller of an async API would. A third
 * row sends through a producer handle (`context.producer`), resolved once.
 */
export async function runDirectBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext();
  await context.addRoutes((r) => {
    r.from("direct:start").to("direct:a").to("direct:b").to("direct:c").to("mock:result?retainFirst=0");
    for (const name of ["a", "b", "c"]) r.from(`direct:${name}`).to(`log:${name}?level=off`);
  });
  await context.start();

  // The same calls by hand: a fresh message object, three sub-calls each doing a no-op log, then
  // a counter standing in for the mock. The last message escapes, so its allocation stays.
  let received = 0;
  let lastMessage: PlainMessage<number> | undefined;
  const log = (_message: PlainMessage<number>) => undefined;
  const sub = (message: PlainMessage<number>) => log(message);
  const start = (message: PlainMessage<number>): number => {
    sub(message);
    sub(message);
    sub(message);
    received++;
    lastMessage = message;
    return message.body;
  };
  let replies = 0;
  const bareChain = (iterations: number) => {
    for (let index = 0; index < iterations; index++) replies += start({ body: index, headers: {} });
  };
  const bareChainAwaited = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) replies += await start({ body: index, headers: {} });
  };
  const routed = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
  };
  const startProducer = context.producer("direct:start");
  const produced = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await startProducer.request(index);
  };
  const iterations = options.quick ? 20_000 : 200_000;
  // More messages per run for the cheaper sides, so every timed run lasts about as long.
  const [routedStats, bareStats, awaitedStats, producedStats] = await compareAll(
    [routed, bareChain, bareChainAwaited, produced],
    [iterations, iterations * 8, iterations * 3, iterations],
    options.quick ? 4 : 15,
  );
  await context.stop();
  if (received === 0 || lastMessage === undefined || replies === 0)
    throw new Error("the hand-written chain never ran");
  if (
    routedStats === undefined ||
    bareStats === undefined ||
    awaitedStats === undefined ||
    producedStats === undefined
  )
    throw new Error("missing stats");
  const benchmark = "direct (Camel DirectConcurrentTest shape)";
  return [
    rowOf(
      {
        benchmark,
        subject: "routekit await request",
        baseline: "bare chain + await",
        baselineDescription:
          "three plain functions called on a fresh { body, headers } object, the reply awaited once per message",
        subjectStats: routedStats,
        baselineStats: awaitedStats,
        target: "≤ 1 µs/msg and ≤ 2.5× bare chain + await",
      },
      (ratio, subject) => subject.medianNs <= 1000 && ratio <= 2.5,
    ),
    rowOf(
      {
        benchmark,
        subject: "routekit await request",
        baseline: "bare chain",
        baselineDescription:
          "the same three plain functions on a fresh { body, headers } object, synchronous, no await",
        subjectStats: routedStats,
        baselineStats: bareStats,
        target: "context (the floor: no await, no framework)",
      },
      () => true,
    ),
    rowOf(
      {
        benchmark,
        subject: "routekit await producer.request",
        baseline: "bare chain + await",
        baselineDescription:
          "three plain functions called on a fresh { body, headers } object, the reply awaited once per message",
        subjectStats: producedStats,
        baselineStats: awaitedStats,
        target: "context: the same route through a handle resolved once (context.producer)",
      },
      () => true,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runDirectBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
