import type { RuntimeExchange } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";

/** Runs a pipeline's steps from step `start`; `attempt` counts the redeliveries of step `start`. */
export type RunFrom = (target: RuntimeExchange, start: number, attempt: number) => void | Promise<void>;

/** What a generated runner calls: the pipeline's steps, and the pipeline's own slow paths. */
export interface RunnerParts {
  readonly steps: readonly Processor[];
  readonly events: { readonly observingSteps: boolean };
  /** The generic loop: runs the steps while step events are observed. */
  readonly loop: RunFrom;
  /**
   * Step `index` returned a promise (`result`), left an error or halted the exchange: what
   * follows (await it, the failure policy, or nothing). `attempt` is that step's redelivery count.
   */
  readonly stopped: (
    target: RuntimeExchange,
    result: Promise<void> | undefined,
    index: number,
    attempt: number,
  ) => void | Promise<void>;
  /** Step `index` threw `error`: the failure policy. */
  readonly threw: (
    target: RuntimeExchange,
    error: unknown,
    index: number,
    attempt: number,
  ) => void | Promise<void>;
}

/** A generated runner: `run` starts at the first step, `runFrom` anywhere (redelivery, resume, after a promise). */
export interface GeneratedRunner {
  readonly run: (exchange: Exchange) => void | Promise<void>;
  readonly runFrom: RunFrom;
}

/**
 * Longer pipelines keep the loop: a runner's code grows with its steps, and past a few hundred
 * bytecodes per step V8 would no longer optimise it as one function.
 */
export const MAX_GENERATED_STEPS = 128;

/** Each runner's source is unique, so V8 gives each pipeline feedback of its own (see below). */
let generatedCount = 0;
/** False once the process refused code generation from strings: every pipeline then loops. */
let codeGenerationAllowed = true;

/**
 * The steps of one pipeline as straight-line code of its own: one call site per step.
 *
 * Why generated: V8 keeps a call site's feedback (which functions it called, whether to inline
 * them) per function literal, shared by every closure made from it. A loop written once is one
 * call site for every step of every route in the process; with the steps of many routes behind
 * it, it turns megamorphic and calls each step through the generic path, never inlined. A runner
 * compiled from its own source has one call site per step, which sees only that step, as
 * hand-written code would. The source is fixed text (no route id, label or any other user data
 * goes into it) plus a counter, since V8 caches compiled sources by their text and would share
 * the feedback of identical ones.
 *
 * Made only for a pipeline that became hot on the shared loop (`hot-runner.ts`): a runner pays
 * once V8 optimises it, which takes many runs of that one function. Returns undefined for long
 * pipelines and where code generation from strings is disallowed
 * (`--disallow-code-generation-from-strings`): the caller then stays on its loop, which behaves
 * the same.
 */
export function generateRunner(parts: RunnerParts): GeneratedRunner | undefined {
  const count = parts.steps.length;
  if (!codeGenerationAllowed || count === 0 || count > MAX_GENERATED_STEPS) return undefined;
  let factory: (parts: RunnerParts) => GeneratedRunner;
  try {
    factory = new Function("parts", runnerSource(++generatedCount, count)) as typeof factory;
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    codeGenerationAllowed = false;
    return undefined;
  }
  return factory(parts);
}

/** A block of one step (a typical split part or sub-route): no loop bookkeeping on the way in. */
const SINGLE_STEP_RUN = [
  "const only = steps[0];",
  "function run(t) {",
  "  if (t.halted) return;",
  "  if (events.observingSteps) return loop(t, 0, 0);",
  "  let r;",
  "  try {",
  "    r = only(t);",
  "  } catch (e) {",
  "    return threw(t, e, 0, 0);",
  "  }",
  "  if (r !== undefined || t.interrupted) return stopped(t, r, 0, 0);",
  "}",
];

/**
 * The same loop as the pipeline's own: a promise, an error left or a halt stops it and `stopped`
 * decides what follows; a throw goes to `threw` with the step's index.
 */
function runnerSource(serial: number, count: number): string {
  return [
    '"use strict";',
    `// routekit pipeline runner ${serial}`,
    "const { events, loop, stopped, threw } = parts;",
    "const steps = [...parts.steps];",
    "const count = steps.length;",
    "function runFrom(t, start, attempt) {",
    "  if (t.halted) return;",
    "  if (events.observingSteps) return loop(t, start, attempt);",
    "  let i = start, r;",
    "  try {",
    "    for (; i < count; i++) {",
    "      r = steps[i](t);",
    "      if (r !== undefined || t.interrupted) break;",
    "    }",
    "  } catch (e) {",
    "    return threw(t, e, i, i === start ? attempt : 0);",
    "  }",
    "  if (i === count) return;",
    "  return stopped(t, r, i, i === start ? attempt : 0);",
    "}",
    ...(count === 1 ? SINGLE_STEP_RUN : ["function run(exchange) { return runFrom(exchange, 0, 0); }"]),
    "return { run, runFrom };",
  ].join("\n");
}
