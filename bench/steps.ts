import { createContext, type RouteBuilder } from "@routekit/core";
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

/** Route lengths whose difference prices one step: the long route has STEPS more steps. */
const SHORT = 1;
const STEPS = 40;
/** Parts of one split message. */
const PARTS = 50;

type Step = (message: PlainMessage<number>) => void;

/** Step `position`: adds one to the body and stamps a header. Distinct closures, as real steps are. */
const counterStep =
  (position: number): Step =>
  (message) => {
    message.body += 1;
    message.headers.lastStep = position;
  };

/** Doubles a part's body: the step every split part runs, on both sides. */
const double = (message: { body: unknown }): void => {
  message.body = (message.body as number) * 2;
};

/**
 * Routes of other shapes, as an application has beside the measured ones: other step functions,
 * a filter, another split, a multicast, a choice. Run before the second set of rows, so the
 * engine's shared code has seen more than the measured routes.
 */
const OTHER_ROUTES = [
  "direct:other-steps",
  "direct:other-filter",
  "direct:other-split",
  "direct:other-multicast",
  "direct:other-choice",
];
function addOtherRoutes(r: RouteBuilder): void {
  r.from("direct:other-steps")
    .process((exchange) => {
      exchange.body = String(exchange.body);
    })
    .process((exchange) => {
      exchange.headers.seen = true;
    })
    .setHeader("kind", () => "other");
  r.from("direct:other-filter")
    .filter((exchange) => typeof exchange.body === "number")
    .process((exchange) => {
      exchange.properties.filtered = true;
    });
  r.from("direct:other-split").split(
    (exchange) => [exchange.body, exchange.body],
    (part) =>
      part.process((exchange) => {
        exchange.body = [exchange.body];
      }),
  );
  r.from("direct:other-multicast").multicast(["direct:other-steps", "direct:other-filter"]);
  r.from("direct:other-choice").choice((choice) =>
    choice
      .when(
        (exchange) => (exchange.body as number) % 2 === 0,
        (branch) => branch.to("direct:other-split"),
      )
      .otherwise((branch) => branch.to("direct:other-multicast")),
  );
}

/**
 * Two costs the direct and scaling rows mix with the rest: one more synchronous step in a route,
 * and one more part of a split. A step's cost is the difference between a route of 41 steps and
 * one of 1 step, divided by 40, paired round by round, against the same difference of a
 * hand-written loop calling the same step functions on a plain message. A part's cost is a split
 * of 50 numbers (each part doubles its number) divided by 50, against a hand-written loop that
 * makes each part a new { body, headers } message sharing the message's headers and runs the same
 * step on it, awaited once per message (the claim: routekit's parts copy headers only when read),
 * and beside the same loop copying the headers into every part (context).
 */
export async function runStepsBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext({ logLevel: "warn" });
  const short = Array.from({ length: SHORT }, (_, index) => counterStep(index));
  const long = Array.from({ length: SHORT + STEPS }, (_, index) => counterStep(index));
  const items = Array.from({ length: PARTS }, (_, index) => index);
  await context.addRoutes((r) => {
    for (const [name, steps] of [
      ["short", short],
      ["long", long],
    ] as const) {
      const route = r.from(`direct:${name}`);
      for (const step of steps) route.process(step as never);
    }
    addOtherRoutes(r);
    r.from("direct:split").split(
      (exchange) => exchange.body as number[],
      (part) => part.process(double),
    );
  });
  await context.start();

  let sink = 0;
  const routed = (uri: string, length: number) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const reply = await context.request<number>(uri, index);
      if (reply !== index + length) throw new Error(`${uri}: got ${reply} for ${index}`);
    }
  };
  const handWritten = (steps: readonly Step[]) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const message: PlainMessage<number> = { body: index, headers: {} };
      for (const step of steps) step(message);
      if ((await message.body) !== index + steps.length) throw new Error("hand-written chain miscounted");
    }
  };
  const headers = { customer: "ada" };
  const routedSplit = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const reply = await context.request<number[]>("direct:split", items, headers);
      if (reply !== items) throw new Error("split did not give back the original body");
    }
  };
  const handSplit = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const message: PlainMessage<number[]> = { body: items, headers: { ...headers } };
      for (const item of message.body) {
        const part: PlainMessage<number> = { body: item, headers: { ...message.headers } };
        double(part);
        sink += part.body;
      }
      await message.body;
    }
  };
  // The same loop without the copy: each part shares the message's headers, as routekit's parts
  // do until one reads them (this step never does). The fair baseline of the split rows.
  const handSplitShared = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const message: PlainMessage<number[]> = { body: items, headers: { ...headers } };
      for (const item of message.body) {
        const part: PlainMessage<number> = { body: item, headers: message.headers };
        double(part);
        sink += part.body;
      }
      await message.body;
    }
  };

  const iterations = options.quick ? 10_000 : 100_000;
  const runs = options.quick ? 4 : 15;
  const warmups = 2;
  const perStep = (longer: number[] | undefined, shorter: number[] | undefined) =>
    summarise((longer ?? []).map((value, round) => (value - (shorter?.[round] ?? 0)) / STEPS));
  const perPart = (samples: number[] | undefined) => summarise((samples ?? []).map((value) => value / PARTS));
  const stepRow = (clock: string, subjectStats: Stats, baselineStats: Stats): BenchRow => {
    const row = rowOf(
      {
        benchmark: `one synchronous step (route of ${SHORT + STEPS} steps − route of ${SHORT}, ÷ ${STEPS}), ${clock}`,
        subject: "routekit process step",
        baseline: "hand-written loop step",
        baselineDescription:
          "the same step functions called in a loop on a fresh { body, headers } object, the same difference of 41 and 1 steps",
        subjectStats,
        baselineStats,
        target: "≤ 2 ns above the hand loop per step",
      },
      (_ratio, subject) => subject.medianNs - baselineStats.medianNs <= 2,
    );
    row.note = `per step (${clock}): routekit ${subjectStats.medianNs.toFixed(1)} ns, hand-written ${baselineStats.medianNs.toFixed(1)} ns (${(subjectStats.medianNs - baselineStats.medianNs).toFixed(1)} ns above); spreads of a difference of two timed runs are wide`;
    return row;
  };
  /** The split row against the loop that copies the headers per part (context) or shares them (the claim). */
  const splitRow = (clock: string, subjectStats: Stats, baselineStats: Stats, copies: boolean): BenchRow =>
    rowOf(
      {
        benchmark: `split, per part (${PARTS} parts per message), ${clock}`,
        subject: "routekit split, one process step per part",
        baseline: copies ? "hand-written loop per part, headers copied" : "hand-written loop per part",
        baselineDescription: copies
          ? "each item made a new { body, headers } object with a copy of the message's headers, the same step run on it, awaited once per message"
          : "each item made a new { body, headers } object sharing the message's headers (no copy: routekit's parts copy them only when read, and this step never reads them), the same step run on it, awaited once per message",
        subjectStats,
        baselineStats,
        target: copies
          ? "context: this loop copies every part's headers, routekit only a part's that reads them"
          : "≤ 2× the hand loop per part",
      },
      (ratio) => copies || ratio <= 2,
    );
  /** Both costs, step and part, in the process as it stands; `where` ends the row names. */
  const measure = async (where: string): Promise<BenchRow[]> => {
    const steps = cpuTimed([
      routed("direct:short", SHORT),
      routed("direct:long", SHORT + STEPS),
      handWritten(short),
      handWritten(long),
    ]);
    const [routedShort, routedLong, handShort, handLong] = await sampleAll(
      steps.timed,
      iterations,
      runs,
      warmups,
    );
    const [cpuShort, cpuLong, cpuHandShort, cpuHandLong] = cpuSamples(steps.cpu, warmups);
    // 40,000 messages of 50 parts a run (tens of milliseconds): with 10,000 a run lasted a few
    // milliseconds, its garbage collections fell unevenly into it, and the spreads reached ±100%
    // (one full run gave 2.01 after the other routes, where runs of this length give 1.5–1.7).
    const splitIterations = options.quick ? 1_000 : 40_000;
    const parts = cpuTimed([routedSplit, handSplit, handSplitShared]);
    const [routedParts, handParts, sharedParts] = await sampleAll(
      parts.timed,
      [splitIterations, splitIterations * 4, splitIterations * 4],
      runs,
      warmups,
    );
    const [cpuParts, cpuHandParts, cpuSharedParts] = cpuSamples(parts.cpu, warmups);
    if (sink === 0) throw new Error("the hand-written split never ran");
    return [
      stepRow(`wall clock${where}`, perStep(routedLong, routedShort), perStep(handLong, handShort)),
      stepRow(`CPU time${where}`, perStep(cpuLong, cpuShort), perStep(cpuHandLong, cpuHandShort)),
      splitRow(`wall clock${where}`, perPart(routedParts), perPart(sharedParts), false),
      splitRow(`CPU time${where}`, perPart(cpuParts), perPart(cpuSharedParts), false),
      splitRow(`wall clock${where}`, perPart(routedParts), perPart(handParts), true),
      splitRow(`CPU time${where}`, perPart(cpuParts), perPart(cpuHandParts), true),
    ];
  };
  try {
    const alone = await measure("");
    // Then the same after routes of other shapes ran in this context: the engine's shared code
    // (the split's part loop, the exchange's fields) has seen more than the measured routes, as
    // in an application; each pipeline's own runner has not.
    for (let index = 0; index < (options.quick ? 2_000 : 20_000); index++) {
      for (const uri of OTHER_ROUTES) await context.request(uri, index);
    }
    return [...alone, ...(await measure(`, after ${OTHER_ROUTES.length} other routes ran`))];
  } finally {
    await context.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runStepsBench({ quick: process.argv.includes("--quick") })) printRow(row);
}
