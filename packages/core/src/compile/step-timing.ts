import type { Exchange, Processor } from "../model/exchange.js";

/**
 * Runs `processor` and calls `done` once it settled — synchronously when it completed
 * synchronously — with the error it threw or rejected with (undefined otherwise; the caller reads
 * `exchange.error` for an error left on the exchange). The step's outcome is passed on unchanged:
 * a throw is rethrown, a rejection stays a rejection.
 */
export function runThen(
  processor: Processor,
  exchange: Exchange,
  done: (thrown: unknown, threw: boolean) => void,
): void | Promise<void> {
  let result: void | Promise<void>;
  try {
    result = processor(exchange);
  } catch (error) {
    done(error, true);
    throw error;
  }
  if (result === undefined) {
    done(undefined, false);
    return;
  }
  return result.then(
    () => done(undefined, false),
    (error: unknown) => {
      done(error, true);
      throw error;
    },
  );
}
