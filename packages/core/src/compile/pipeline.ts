import { toError } from "../errors/errors.js";
import type { EventBus } from "../exchange/events.js";
import { type RuntimeExchange, runtime } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import { generateRunner, type RunFrom } from "./generated-runner.js";
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

/**
 * The routes whose error handling is switched off for an exchange (inside doTry, circuitBreaker).
 * Kept under a symbol in the properties, so copies made inside (split parts, multicast branches)
 * share it, and invisible to expressions and serialisation.
 */
const SUSPENDED = Symbol("routekit.errorHandlingSuspended");

type SuspendableProperties = Record<string | symbol, unknown> & { [SUSPENDED]?: string[] };

/**
 * Runs `block` with route `routeId`'s error handling switched off for this exchange: a failure
 * inside reaches the caller of `block` untouched (no redelivery, no onException), as a doTry or a
 * circuit breaker needs. Routes called from inside (`direct:`) keep their own error handling.
 */
export function withoutErrorHandling(
  exchange: Exchange,
  routeId: string,
  block: () => void | Promise<void>,
): void | Promise<void> {
  const properties = exchange.properties as SuspendableProperties;
  let scopes = properties[SUSPENDED];
  if (scopes === undefined) {
    scopes = [];
    properties[SUSPENDED] = scopes;
  }
  const routes = scopes;
  routes.push(routeId);
  const leave = (): void => {
    routes.splice(routes.lastIndexOf(routeId), 1);
  };
  let result: void | Promise<void>;
  try {
    result = block();
  } catch (error) {
    leave();
    exchange.error = toError(error);
    return;
  }
  if (result === undefined) {
    leave();
    return;
  }
  return result.then(leave, (error: unknown) => {
    leave();
    exchange.error = toError(error);
  });
}

function errorHandlingSuspended(exchange: Exchange, routeId: string): boolean {
  return (exchange.properties as SuspendableProperties)[SUSPENDED]?.includes(routeId) === true;
}

/** A pipeline that nothing observes (the rejection pipeline): its steps emit no step events. */
const UNOBSERVED: Pick<EventBus, "observingSteps" | "emit"> = {
  observingSteps: false,
  emit: () => undefined,
};

/** Nothing to run: a block whose steps were all dropped at compile time (e.g. `log:x?level=off`). */
const nothing: Processor = () => undefined;

/**
 * Compiles steps into one processor that runs them in order: the channel around every step. Its
 * layers, outermost first: the route's failure policy (here), step events (here, while someone
 * listens to them: `events.observingSteps` is read once per run of the block otherwise), then the
 * interceptors the compiler already wrapped into each processor. Synchronous steps run one after
 * the other — as straight-line code generated for this pipeline (generated-runner.ts says why),
 * or a plain loop where it is not — and a promise is awaited only when a step returns one, so a
 * synchronous route allocates none.
 */
export function createPipeline(
  processors: readonly Processor[],
  labels: readonly string[],
  routeId: string,
  policy: FailurePolicy,
  events: Pick<EventBus, "observingSteps" | "emit"> = UNOBSERVED,
  /** False for a block that runs rarely (the rejection pipeline): no runner is generated for it. */
  generate = true,
): Processor {
  const count = processors.length;
  if (count === 0) return nothing;
  /** Runs step `index` with its step events around it. */
  const observed = (target: RuntimeExchange, index: number): void | Promise<void> => {
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
  /** The steps with their step events around them: what runs while someone listens (made on first use). */
  let observedSteps: Processor[] | undefined;
  const stepsToRun = (): readonly Processor[] => {
    if (!events.observingSteps) return processors;
    observedSteps ??= processors.map((_, index) => (target: Exchange) => observed(runtime(target), index));
    return observedSteps;
  };
  /** Where a redelivery, a resume or the rest after a promise enters: the generated runner or the loop. */
  let runFrom: RunFrom;
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
          ? fail(target, target.error, index, attempt)
          : runFrom(target, index + 1, 0),
      (error: unknown) => fail(target, error, index, attempt),
    );
  // `attempt` counts the redeliveries of the step at `start` (the only one a redelivery re-enters).
  // The step events flag is read once per run of the block (and again after each asynchronous
  // step): a listener that subscribes sees the steps that start after that. The loop stops at the
  // first step that returns a promise, leaves an error or halts the exchange; one try around it
  // catches a throw and names the step by the loop's index.
  const loopFrom: RunFrom = (target, start, attempt) => {
    if (target.halted) return;
    const steps = stepsToRun();
    let index = start;
    let result: Promise<void> | undefined;
    try {
      for (; index < count; index++) {
        result = steps[index]!(target) as Promise<void> | undefined;
        if (result !== undefined || target.interrupted) break;
      }
    } catch (error) {
      return fail(target, error, index, index === start ? attempt : 0);
    }
    if (index === count) return;
    const tried = index === start ? attempt : 0;
    if (result !== undefined) return afterAsync(target, result, index, tried);
    if (target.error !== undefined) return fail(target, target.error, index, tried);
  };
  const fail = (
    target: RuntimeExchange,
    error: unknown,
    index: number,
    attempt: number,
  ): void | Promise<void> => {
    const label = labels[index]!;
    target.error = toError(error);
    if (target.failure === undefined) target.failure = { routeId, step: label };
    // Already dealt with by this route's policy in a nested block, or inside a doTry / circuit
    // breaker of this route: just propagate.
    if (target.exhaustedIn === routeId || errorHandlingSuspended(target, routeId)) return;
    try {
      return policy(
        target,
        label,
        attempt,
        () => runFrom(target, index, attempt + 1),
        () => runFrom(target, index + 1, 0),
      );
    } catch (policyError) {
      // A failing retryWhile / handled predicate: that error ends the exchange, unhandled.
      target.error = toError(policyError);
      target.exhaustedIn = routeId;
    }
  };
  // Step `index` stopped the straight line: await its promise, or hand its error to the policy.
  runFrom = loopFrom;
  const stopped = (
    target: RuntimeExchange,
    result: Promise<void> | undefined,
    index: number,
    attempt: number,
  ): void | Promise<void> => {
    if (result !== undefined) return afterAsync(target, result, index, attempt);
    if (target.error !== undefined) return fail(target, target.error, index, attempt);
  };
  const generated = generate
    ? generateRunner({ steps: processors, events, loop: loopFrom, stopped, threw: fail })
    : undefined;
  if (generated !== undefined) {
    runFrom = generated.runFrom;
    return generated.run;
  }
  if (count === 1) {
    // One step (a typical sub-route): no loop bookkeeping on the way in.
    const only = processors[0]!;
    return (exchange: Exchange) => {
      const target = runtime(exchange);
      if (target.halted) return;
      let result: void | Promise<void>;
      try {
        result = events.observingSteps ? observed(target, 0) : only(target);
      } catch (error) {
        return fail(target, error, 0, 0);
      }
      if (result !== undefined) {
        return result.then(
          () => (target.error !== undefined ? fail(target, target.error, 0, 0) : undefined),
          (error: unknown) => fail(target, error, 0, 0),
        );
      }
      if (target.error !== undefined) return fail(target, target.error, 0, 0);
    };
  }
  return (exchange: Exchange) => loopFrom(runtime(exchange), 0, 0);
}
