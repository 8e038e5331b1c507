import { writeFile } from "node:fs/promises";
import { createContext, type RouteContext } from "@routekit/core";
import { renderLineChart } from "./chart.js";
import {
  type BenchOptions,
  type BenchRow,
  compare,
  compareAll,
  printRow,
  rowOf,
  type Stats,
} from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

const LENGTHS = [1, 5, 20, 50] as const;
/** JSON documents of about these sizes, parsed by the first payload step and serialised by the last. */
const PAYLOAD_BYTES = [100, 1024, 100 * 1024] as const;
const PAYLOAD_STEPS = 5;
const CONTEXT_TARGET = "context (no target): the per-step cost";
const PAYLOAD_TARGET = "context (no target): overhead against payload work";

/** A step: takes a routekit exchange in the route and a plain message in the baseline. */
type Step = (message: PlainMessage) => void;

/** Step `position` of a chain: adds one to a numeric body. Distinct closures, as real steps are. */
const counterStep =
  (position: number): Step =>
  (message) => {
    message.body = (message.body as number) + 1;
    message.headers.lastStep = position;
  };

interface Order {
  items: Array<{ sku: string; quantity: number; note: string }>;
  total?: number;
}

/** A JSON order of at least `bytes` bytes: items of about 60 bytes each. */
function orderText(bytes: number): string {
  const order: Order = { items: [] };
  let text = JSON.stringify(order);
  for (let index = 0; text.length < bytes; index++) {
    order.items.push({ sku: `A-${index}`, quantity: index % 7, note: "x".repeat(20) });
    text = JSON.stringify(order);
  }
  return text;
}

/**
 * The payload chain: parse the JSON text, count the items, total the quantities, stamp a header,
 * serialise the order back to JSON. Each message's document is parsed and written anew.
 */
const payloadChain: readonly Step[] = [
  (message) => {
    message.body = JSON.parse(message.body as string) as Order;
  },
  (message) => {
    message.headers.items = (message.body as Order).items.length;
  },
  (message) => {
    const order = message.body as Order;
    let total = 0;
    for (const item of order.items) total += item.quantity;
    order.total = total;
  },
  (message) => {
    message.headers.priced = true;
  },
  (message) => {
    message.body = JSON.stringify(message.body);
  },
];

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

/**
 * The baseline: the same step functions called in a loop on a fresh plain message object, the
 * reply awaited once per message. No routekit object in it.
 */
const handWritten =
  (
    steps: readonly Step[],
    body: (index: number) => unknown,
    check: (reply: unknown, index: number) => void,
  ) =>
  async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const message: PlainMessage = { body: body(index), headers: {} };
      for (const step of steps) step(message);
      check(await message.body, index);
    }
  };

/**
 * The baseline as straight-line code: the same step functions, each called from a call site of
 * its own (`s0(message); s1(message); …`), as a user writes a fixed chain by hand. Compiled from
 * a source per chain, since the lengths here are many; only the step calls are generated.
 */
function straightLine(
  steps: readonly Step[],
  body: (index: number) => unknown,
  check: (reply: unknown, index: number) => void,
): (iterations: number) => Promise<void> {
  const names = steps.map((_, index) => `s${index}`);
  const source = [
    `const [${names.join(", ")}] = steps;`,
    "return async (iterations) => {",
    "  for (let index = 0; index < iterations; index++) {",
    "    const message = { body: body(index), headers: {} };",
    ...names.map((name) => `    ${name}(message);`),
    "    check(await message.body, index);",
    "  }",
    "};",
  ].join("\n");
  const factory = new Function("steps", "body", "check", source) as (
    steps: readonly Step[],
    body: (index: number) => unknown,
    check: (reply: unknown, index: number) => void,
  ) => (iterations: number) => Promise<void>;
  return factory(steps, body, check);
}

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
 * against payload size (JSON orders of about 100 B, 1 KB, 100 KB, parsed, read and serialised
 * again over 5 steps), each beside a hand-written loop calling the same step functions on a plain
 * message. Writes bench/scaling.svg (ns/message against steps) unless quick.
 */
export async function runScalingBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext({ logLevel: "warn" });
  const chains = new Map(
    LENGTHS.map((length) => [length, Array.from({ length }, (_, index) => counterStep(index))]),
  );
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
      const [subject, baseline, straight] = await compareAll(
        [
          routed(context, `direct:length${length}`, body, check),
          handWritten(steps, body, check),
          straightLine(steps, body, check),
        ],
        iterations,
        runs,
      );
      const result = { subject: subject!, baseline: baseline! };
      curve.routekit.push([length, result.subject.medianNs]);
      curve.handWritten.push([length, result.baseline.medianNs]);
      const name = `route length ${length} step${length === 1 ? "" : "s"}`;
      rows.push(
        row(name, result, CONTEXT_TARGET, LENGTH_BASELINE),
        row(
          name,
          { subject: subject!, baseline: straight! },
          CONTEXT_TARGET,
          STRAIGHT_BASELINE,
          "hand-written straight-line + await",
        ),
      );
    }
    for (const bytes of PAYLOAD_BYTES) {
      const text = orderText(bytes);
      const expectedLength = text.length + `,"total":${totalOf(text)}`.length;
      const body = () => text;
      const check = (reply: unknown) => {
        if (typeof reply !== "string" || reply.length !== expectedLength)
          throw new Error(`payload ${text.length} B: expected the order serialised again with its total`);
      };
      // About the same bytes per run for every size (5 MB, 0.5 MB when quick).
      const payloadIterations = Math.max(
        options.quick ? 20 : 100,
        Math.min(iterations, Math.floor((options.quick ? 500_000 : 5_000_000) / text.length)),
      );
      const result = await compare(
        routed(context, "direct:payload", body, check),
        handWritten(payloadChain, body, check),
        payloadIterations,
        runs,
      );
      const label = `payload ${text.length.toLocaleString("en-US")} B JSON, ${PAYLOAD_STEPS} steps (parse … serialise)`;
      rows.push(row(label, result, PAYLOAD_TARGET, PAYLOAD_BASELINE));
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

const LENGTH_BASELINE =
  "the same step functions called in a loop on a fresh { body, headers } object, the reply awaited once per message";
const STRAIGHT_BASELINE =
  "the same step functions, each called from a call site of its own (s0(message); s1(message); …), on a fresh { body, headers } object, the reply awaited once per message";
const PAYLOAD_BASELINE =
  "the same five steps (JSON.parse, read, total, header, JSON.stringify) on a fresh { body, headers } object, awaited once per message";

/** The total quantity of a JSON order's items, as the payload chain computes it. */
function totalOf(text: string): number {
  return (JSON.parse(text) as Order).items.reduce((sum, item) => sum + item.quantity, 0);
}

function row(
  benchmark: string,
  result: { subject: Stats; baseline: Stats },
  target: string,
  baselineDescription: string,
  baseline = "hand-written loop + await",
): BenchRow {
  return rowOf(
    {
      benchmark: `scaling: ${benchmark}`,
      subject: "routekit await request",
      baseline,
      baselineDescription,
      subjectStats: result.subject,
      baselineStats: result.baseline,
      target,
    },
    () => true,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runScalingBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
