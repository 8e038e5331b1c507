import { toError } from "../errors/errors.js";
import type { EventBus } from "../exchange/events.js";
import { type RuntimeExchange, runtime } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { RunFrom, RunnerParts } from "./generated-runner.js";
import { runThen } from "./step-timing.js";

/**
 * Decides what happens when a step of a pipeline fails (the error is on `exchange.error`):
 * redeliver (`again()` runs the failed step again and the rest), continue (`resume()` runs the
 * rest), or give up (mark the exchange exhausted and return). `attempt` is how many redeliveries
 * this failing step already had for this exchange (0 on its first failure). One policy per route.
 */
export type FailurePolicy = (
  exchange: RuntimeExchange,
  label: string,
  attempt: number,
  again: () => void | Promise<void>,
  resume: () => void | Promise<void>,
) => void | Promise<void>;

/** The pipeline's own paths around its steps, shared by the loop and a generated runner. */
export interface PipelineChannel {
  /**
   * Where a redelivery, a resume or the rest after a promise enters: the loop, or the pipeline's
   * generated runner once it has one.
   */
  runFrom: RunFrom;
  /** The loop every pipeline shares: runs the steps from `start` (with their events while observed). */
  readonly loop: RunFrom;
  /** Step `index` returned a promise, left an error or halted the exchange: what follows. */
  readonly stopped: RunnerParts["stopped"];
  /** Step `index` failed with `error`: the failure policy. */
  readonly fail: RunnerParts["threw"];
  /** Runs step `index` with its step events around it. */
  readonly observed: (target: RuntimeExchange, index: number) => void | Promise<void>;
}

/**
 * The channel of one pipeline: the loop, the step events around each step while someone listens,
 * awaiting a step's promise, and the route's failure policy. `suspended` says whether the
 * route's error handling is switched off for an exchange (inside a doTry or circuit breaker).
 */
export function pipelineChannel(
  processors: readonly Processor[],
  labels: readonly string[],
  routeId: string,
  policy: FailurePolicy,
  events: Pick<EventBus, "observingSteps" | "emit">,
  suspended: (exchange: Exchange, routeId: string) => boolean,
): PipelineChannel {
  const observed = observedStep(processors, labels, routeId, events);
  const channel: { -readonly [Key in keyof PipelineChannel]: PipelineChannel[Key] } = {
    runFrom: undefined as unknown as RunFrom,
    loop: undefined as unknown as RunFrom,
    observed,
    fail: (target, error, index, attempt) => {
      const label = labels[index]!;
      target.error = toError(error);
      if (target.failure === undefined) target.failure = { routeId, step: label };
      // Already dealt with by this route's policy in a nested block, or inside a doTry / circuit
      // breaker of this route: just propagate.
      if (target.exhaustedIn === routeId || suspended(target, routeId)) return;
      try {
        return policy(
          target,
          label,
          attempt,
          () => channel.runFrom(target, index, attempt + 1),
          () => channel.runFrom(target, index + 1, 0),
        );
      } catch (policyError) {
        // A failing retryWhile / handled predicate: that error ends the exchange, unhandled.
        target.error = toError(policyError);
        target.exhaustedIn = routeId;
      }
    },
    stopped: (target, result, index, attempt) => {
      if (result !== undefined) return afterAsync(target, result, index, attempt);
      if (target.error !== undefined) return channel.fail(target, target.error, index, attempt);
    },
  };
  /** After step `index` returned a promise: on to the next step, or to the failure policy. */
  const afterAsync = (
    target: RuntimeExchange,
    result: Promise<void>,
    index: number,
    attempt: number,
  ): Promise<void> =>
    result.then(
      () =>
        target.error !== undefined
          ? channel.fail(target, target.error, index, attempt)
          : channel.runFrom(target, index + 1, 0),
      (error: unknown) => channel.fail(target, error, index, attempt),
    );
  channel.loop = sharedLoop(processors, events, observed, channel);
  channel.runFrom = channel.loop;
  return channel;
}

/** Step `index` with its step events around it. */
function observedStep(
  processors: readonly Processor[],
  labels: readonly string[],
  routeId: string,
  events: Pick<EventBus, "emit">,
): PipelineChannel["observed"] {
  return (target, index) => {
    const stepPath = labels[index]!;
    events.emit("step-started", { exchange: target, routeId, stepPath });
    const started = performance.now();
    return runThen(processors[index]!, target, (thrown, threw) => {
      const durationMs = performance.now() - started;
      const error = threw ? toError(thrown) : target.error;
      if (error === undefined)
        events.emit("step-completed", { exchange: target, routeId, stepPath, durationMs });
      else events.emit("step-failed", { exchange: target, routeId, stepPath, durationMs, error });
    });
  };
}

/**
 * The loop. `attempt` counts the redeliveries of the step at `start` (the only one a redelivery
 * re-enters). The step events flag is read once per run of the block (and again after each
 * asynchronous step): a listener that subscribes sees the steps that start after that. The loop
 * stops at the first step that returns a promise, leaves an error or halts the exchange; one try
 * around it catches a throw and names the step by the loop's index.
 */
function sharedLoop(
  processors: readonly Processor[],
  events: Pick<EventBus, "observingSteps">,
  observed: PipelineChannel["observed"],
  channel: Pick<PipelineChannel, "fail" | "stopped">,
): RunFrom {
  const count = processors.length;
  /** The steps with their step events around them: what runs while someone listens (made on first use). */
  let observedSteps: Processor[] | undefined;
  return (target, start, attempt) => {
    if (target.halted) return;
    let steps = processors;
    if (events.observingSteps)
      steps = observedSteps ??= processors.map(
        (_, index) => (step: Exchange) => observed(runtime(step), index),
      );
    let index = start;
    let result: Promise<void> | undefined;
    try {
      for (; index < count; index++) {
        result = steps[index]!(target) as Promise<void> | undefined;
        if (result !== undefined || target.interrupted) break;
      }
    } catch (error) {
      return channel.fail(target, error, index, index === start ? attempt : 0);
    }
    if (index === count) return;
    return channel.stopped(target, result, index, index === start ? attempt : 0);
  };
}
