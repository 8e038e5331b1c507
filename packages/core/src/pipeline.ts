import { type RuntimeExchange, runtime } from "./create-exchange.js";
import type { Exchange, Processor } from "./exchange.js";

/**
 * Decides what happens when step `index` of a pipeline fails (the error is on `exchange.error`):
 * redeliver (`again()` runs the failed step again and the rest), continue (`resume()` runs the
 * rest), or give up (mark the exchange exhausted and return). One policy per route.
 */
export type FailurePolicy = (
  exchange: RuntimeExchange,
  label: string,
  again: () => void | Promise<void>,
  resume: () => void | Promise<void>,
) => void | Promise<void>;

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Compiles steps into one processor that runs them in order. Synchronous steps run in a plain
 * loop: a promise is awaited only when a step returns one, so a synchronous route allocates none.
 */
export function createPipeline(
  processors: readonly Processor[],
  labels: readonly string[],
  routeId: string,
  policy: FailurePolicy,
): Processor {
  const count = processors.length;
  const runFrom = (target: RuntimeExchange, start: number): void | Promise<void> => {
    for (let index = start; index < count; index++) {
      if (target.stopped || target.haltedIn !== undefined) return;
      let result: void | Promise<void>;
      try {
        result = processors[index]!(target);
      } catch (error) {
        return fail(target, error, index);
      }
      if (result !== undefined) {
        return result.then(
          () => (target.error !== undefined ? fail(target, target.error, index) : runFrom(target, index + 1)),
          (error: unknown) => fail(target, error, index),
        );
      }
      if (target.error !== undefined) return fail(target, target.error, index);
    }
  };
  const fail = (target: RuntimeExchange, error: unknown, index: number): void | Promise<void> =>
    failure(
      target,
      error,
      labels[index]!,
      () => runFrom(target, index),
      () => runFrom(target, index + 1),
    );
  return (exchange: Exchange) => runFrom(runtime(exchange), 0);

  function failure(
    target: RuntimeExchange,
    error: unknown,
    label: string,
    again: () => void | Promise<void>,
    resume: () => void | Promise<void>,
  ): void | Promise<void> {
    target.error = toError(error);
    if (target.failure === undefined) target.failure = { routeId, step: label };
    // Already dealt with by this route's policy in a nested block: just propagate.
    if (target.exhaustedIn === routeId) return;
    return policy(target, label, again, resume);
  }
}
