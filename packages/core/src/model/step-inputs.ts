import type { Exchange } from "./exchange.js";

/** An expression: a `${...}` simple-language string, a constant string, or a function of the exchange. */
export type ExpressionInput<TValue = unknown> = string | ((exchange: Exchange) => TValue);
/** A predicate: a simple-language string or a function of the exchange. */
export type PredicateInput = string | ((exchange: Exchange) => unknown);

/** Log levels of `log` and `log:`. */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "off";

/** Error class to match, as given to `onException` and `doTry`. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Merges the next exchange into the result so far (`previous` is undefined the first time) and
 * returns the exchange that carries the result: Camel's aggregation strategy, used by split,
 * multicast, recipientList and aggregate.
 */
export type AggregationStrategy<TResult = unknown, TPart = unknown> = (
  previous: Exchange<TResult> | undefined,
  next: Exchange<TPart>,
) => Exchange<TResult>;
