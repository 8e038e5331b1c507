import { createContext, type Exchange } from "@routekit/core";
import { type BenchOptions, type BenchRow, compare, printRow } from "./harness.js";

/**
 * Camel's DirectConcurrentTest shape on one core: request to direct:start → three direct:
 * sub-routes, each with a log step at level off → mock:result retaining nothing; beside a
 * hand-written function chain doing the same calls on the same kind of object.
 */
export async function runDirectBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext();
  await context.addRoutes((r) => {
    r.from("direct:start").to("direct:a").to("direct:b").to("direct:c").to("mock:result?retainFirst=0");
    for (const name of ["a", "b", "c"]) r.from(`direct:${name}`).to(`log:${name}?level=off`);
  });
  await context.start();

  // The limit: the same calls by hand — an exchange-shaped object, three sub-calls each doing a
  // no-op log, then a counter standing in for the mock.
  let received = 0;
  const log = (_exchange: Exchange) => undefined;
  const sub = (exchange: Exchange) => log(exchange);
  const start = (exchange: Exchange) => {
    sub(exchange);
    sub(exchange);
    sub(exchange);
    received++;
  };
  const handWritten = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const exchange = context.createExchange({ body: index, pattern: "InOut" });
      start(exchange);
      await exchange.body;
    }
  };
  const routed = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) await context.request("direct:start", index);
  };
  const iterations = options.quick ? 20_000 : 200_000;
  const result = await compare(routed, handWritten, iterations, options.quick ? 3 : 9);
  await context.stop();
  if (received === 0) throw new Error("the hand-written chain never ran");
  const ratio = result.subject.medianNs / result.baseline.medianNs;
  const row: BenchRow = {
    benchmark: "direct (Camel DirectConcurrentTest shape)",
    subject: "routekit request",
    baseline: "hand-written chain",
    subjectStats: result.subject,
    baselineStats: result.baseline,
    ratio,
    target: "≤ 1 µs/msg and ≤ 3× hand-written",
    met: result.subject.medianNs <= 1000 && ratio <= 3,
  };
  return [row];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runDirectBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
