import { writeFile } from "node:fs/promises";
import { createContext, type Exchange, type Processor, type RouteContext } from "@routekit/core";
import { renderLineChart } from "./chart.js";
import { type BenchOptions, type BenchRow, compare, printRow, rowOf, type Stats } from "./harness.js";

const LENGTHS = [1, 5, 20, 50] as const;
const PAYLOADS = [
  { label: "10 B", bytes: 10 },
  { label: "1 KB", bytes: 1024 },
  { label: "100 KB", bytes: 100 * 1024 },
] as const;
const PAYLOAD_STEPS = 5;
const CONTEXT_TARGET = "context (no target): the per-step cost";

/** Step `position` of a chain: adds one to a numeric body. Distinct closures, as real steps are. */
const counterStep =
  (position: number): Processor =>
  (exchange: Exchange) => {
    exchange.body = (exchange.body as number) + 1;
    exchange.headers.lastStep = position;
  };

/** A step that reads the payload without copying it, as a routing or enrichment step would. */
const payloadStep =
  (position: number): Processor =>
  (exchange: Exchange) => {
    exchange.headers.bytes = (exchange.body as { text: string }).text.length;
    exchange.headers.lastStep = position;
  };

/** Requests `uri` N times, checking each reply. */
const routed =
  (
    context: RouteContext,
    uri: string,
    body: (index: number) => unknown,
    check: (reply: unknown, index: number) => void,
  ) =>
  async (iterations: number) => {
    for (let index = 0; index < iterations; index++) check(await context.request(uri, body(index)), index);
  };

/** The limit: the same steps called in a loop on an exchange made by the same context. */
const handWritten =
  (
    context: RouteContext,
    steps: readonly Processor[],
    body: (index: number) => unknown,
    check: (reply: unknown, index: number) => void,
  ) =>
  async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const exchange = context.createExchange({ body: body(index), pattern: "InOut" });
      for (const step of steps) step(exchange);
      check(await exchange.body, index);
    }
  };

/** Least-squares slope of y over x: the cost one more step adds. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return numerator / denominator;
}

/**
 * How cost grows: throughput against route length (1, 5, 20, 50 synchronous process steps) and
 * against payload size (10 B, 1 KB, 100 KB through 5 steps), each beside a hand-written loop
 * calling the same step functions. Writes bench/scaling.svg (ns/message against steps) unless quick.
 */
export async function runScalingBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext({ logLevel: "warn" });
  const chains = new Map(
    LENGTHS.map((length) => [length, Array.from({ length }, (_, index) => counterStep(index))]),
  );
  const payloadChain = Array.from({ length: PAYLOAD_STEPS }, (_, index) => payloadStep(index));
  await context.addRoutes((r) => {
    for (const [length, steps] of chains) {
      const route = r.from(`direct:length${length}`);
      for (const step of steps) route.process(step);
    }
    const route = r.from("direct:payload");
    for (const step of payloadChain) route.process(step);
  });
  await context.start();

  const iterations = options.quick ? 10_000 : 100_000;
  const runs = options.quick ? 3 : 15;
  const rows: BenchRow[] = [];
  const curve: { routekit: Array<[number, number]>; handWritten: Array<[number, number]> } = {
    routekit: [],
    handWritten: [],
  };
  try {
    for (const [length, steps] of chains) {
      const check = (reply: unknown, index: number) => {
        if (reply !== index + length) throw new Error(`length ${length}: got ${String(reply)} for ${index}`);
      };
      const body = (index: number) => index;
      const result = await compare(
        routed(context, `direct:length${length}`, body, check),
        handWritten(context, steps, body, check),
        iterations,
        runs,
      );
      curve.routekit.push([length, result.subject.medianNs]);
      curve.handWritten.push([length, result.baseline.medianNs]);
      rows.push(row(`route length ${length} step${length === 1 ? "" : "s"}`, result));
    }
    for (const payload of PAYLOADS) {
      const document = { text: "x".repeat(payload.bytes) };
      const body = () => document;
      const check = (reply: unknown) => {
        if (reply !== document) throw new Error(`payload ${payload.label}: the body was replaced`);
      };
      const result = await compare(
        routed(context, "direct:payload", body, check),
        handWritten(context, payloadChain, body, check),
        iterations,
        runs,
      );
      rows.push(row(`payload ${payload.label}, ${PAYLOAD_STEPS} steps`, result));
    }
  } finally {
    await context.stop();
  }

  const routekitSlope = slope(curve.routekit);
  const handSlope = slope(curve.handWritten);
  const svg = renderLineChart({
    title: "Cost per message against route length",
    xLabel: "synchronous process steps in the route",
    yLabel: "ns per message (median)",
    series: [
      {
        name: `routekit request (${routekitSlope.toFixed(0)} ns/step)`,
        color: "#d9480f",
        points: curve.routekit,
      },
      {
        name: `hand-written loop (${handSlope.toFixed(0)} ns/step)`,
        color: "#1c7ed6",
        points: curve.handWritten,
      },
    ],
  });
  if (!options.quick) await writeFile(new URL("./scaling.svg", import.meta.url), svg);
  const first = rows[0];
  if (first !== undefined)
    first.note = `per-step cost (least-squares slope over 1–50 steps): routekit ${routekitSlope.toFixed(1)} ns/step, hand-written ${handSlope.toFixed(1)} ns/step; chart in scaling.svg`;
  return rows;
}

function row(benchmark: string, result: { subject: Stats; baseline: Stats }): BenchRow {
  return rowOf(
    {
      benchmark: `scaling: ${benchmark}`,
      subject: "routekit request",
      baseline: "hand-written loop",
      subjectStats: result.subject,
      baselineStats: result.baseline,
      target: CONTEXT_TARGET,
    },
    () => true,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runScalingBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) {
    printRow(row);
    if (row.note !== undefined) console.log(`  ${row.note}`);
  }
}
