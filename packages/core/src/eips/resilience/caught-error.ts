import type { RuntimeExchange } from "../../exchange/runtime-exchange.js";

/** Runs `next` after `result`, synchronously when `result` is not a promise. */
export function andThen(
  result: void | Promise<void>,
  next: () => void | Promise<void>,
): void | Promise<void> {
  return result === undefined ? next() : result.then(next);
}

/** Clears the exchange's error and where it failed: a catch clause or a fallback took it over. */
export function clearError(exchange: RuntimeExchange): void {
  exchange.error = undefined;
  exchange.failure = undefined;
  exchange.exhaustedIn = undefined;
}
