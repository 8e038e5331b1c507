import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import {
  type BenchOptions,
  type BenchRow,
  collectAllGarbage,
  printRow,
  rowOf,
  summarise,
} from "./harness.js";
import type { PlainMessage } from "./plain-message.js";

/** The steps before and after the one that waits: the same functions on both sides. */
const stamp = (message: { headers: Record<string, unknown> }): void => {
  message.headers.stamped = true;
};
const increment = (message: { body: unknown }): void => {
  message.body = (message.body as number) + 1;
};

/** The step that waits: an async function awaiting the gate, as a step awaiting a call would. */
const wait = async (waiting: Gate): Promise<void> => {
  await waiting.opened;
};

/** A gate every waiting step awaits; opening it lets every message in flight finish. */
interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Heap used after a full collection, in bytes. */
function heapUsed(): number {
  collectAllGarbage();
  collectAllGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * Bytes per message in flight: `start(count, gate)` starts `count` messages that all wait at the
 * gate, the heap is read after a full collection before and while they wait, then the gate opens
 * and every reply is checked.
 */
async function bytesInFlight(
  count: number,
  start: (index: number, gate: Gate) => Promise<unknown>,
): Promise<number> {
  const waiting = gate();
  const before = heapUsed();
  const replies: Array<Promise<unknown>> = new Array(count);
  for (let index = 0; index < count; index++) replies[index] = start(index, waiting);
  const during = heapUsed();
  waiting.open();
  const values = await Promise.all(replies);
  for (let index = 0; index < count; index++) {
    if (values[index] !== index + 1) throw new Error(`message ${index}: got ${String(values[index])}`);
  }
  return (during - before) / count;
}

/** The route: stamp a header, wait at the gate, increment the body. */
async function parkingContext(current: () => Gate): Promise<RouteContext> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) =>
    r
      .from("direct:park")
      .process((exchange: Exchange) => stamp(exchange))
      .process(() => wait(current()))
      .process((exchange: Exchange) => increment(exchange)),
  );
  await context.start();
  return context;
}

/**
 * Memory per exchange in flight: 20,000 requests (1,000 with --quick) waiting inside a route of
 * three steps (the second an async function awaiting a promise), against the same three steps as a hand-written async
 * function on a plain { body, headers } message. Rounds alternate the sides; each round's value
 * is the heap growth (after a full collection) divided by the messages waiting. A context row
 * gives the same requests with a deadline of their own (`requestExchange` with `timeoutMs`).
 */
export async function runInflightBench(options: BenchOptions): Promise<BenchRow[]> {
  let current = gate();
  const context = await parkingContext(() => current);
  const count = options.quick ? 1_000 : 20_000;
  const rounds = options.quick ? 3 : 8;
  const handWritten = async (body: number, waiting: Gate): Promise<unknown> => {
    const message: PlainMessage = { body, headers: {} };
    stamp(message);
    await wait(waiting);
    increment(message);
    return message.body;
  };
  const sides: Array<(index: number, waiting: Gate) => Promise<unknown>> = [
    (index, waiting) => {
      current = waiting;
      return context.request("direct:park", index);
    },
    (index, waiting) => handWritten(index, waiting),
    (index, waiting) => {
      current = waiting;
      return context
        .requestExchange("direct:park", { body: index, timeoutMs: 60_000 })
        .then((exchange) => exchange.body);
    },
  ];
  const samples: number[][] = sides.map(() => []);
  try {
    for (let round = 0; round < rounds + 1; round++) {
      for (let offset = 0; offset < sides.length; offset++) {
        const position = (round + offset) % sides.length;
        const bytes = await bytesInFlight(count, sides[position]!);
        if (round > 0) samples[position]!.push(bytes);
      }
    }
  } finally {
    await context.stop();
  }
  const [routed, hand, withDeadline] = samples.map(summarise);
  const benchmark = `memory per exchange in flight (${count.toLocaleString("en-US")} waiting in a 3-step route)`;
  const baselineDescription =
    "an async function running the same three steps on a fresh { body, headers } object, awaiting the same promise, its promise kept by the caller";
  return [
    rowOf(
      {
        benchmark,
        subject: "routekit request",
        baseline: "hand-written async function",
        baselineDescription,
        subjectStats: routed!,
        baselineStats: hand!,
        target: "≤ 1,000 B per exchange",
        unit: "bytes",
        note: `${routed!.medianNs.toFixed(0)} B vs ${hand!.medianNs.toFixed(0)} B per message in flight; with a deadline of its own (requestExchange, timeoutMs) ${withDeadline!.medianNs.toFixed(0)} B`,
      },
      (_ratio, subject) => subject.medianNs <= 1000,
    ),
    rowOf(
      {
        benchmark,
        subject: "routekit requestExchange with timeoutMs",
        baseline: "hand-written async function",
        baselineDescription,
        subjectStats: withDeadline!,
        baselineStats: hand!,
        target: "context: a deadline of its own (timer and abort signal)",
        unit: "bytes",
      },
      () => true,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runInflightBench({ quick: process.argv.includes("--quick") })) printRow(row);
}
