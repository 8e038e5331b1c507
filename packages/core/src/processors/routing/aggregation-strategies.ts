import type { Exchange } from "../../model/exchange.js";

/**
 * Merges the next exchange into the result so far (`previous` is undefined the first time) and
 * returns the exchange that carries the result: Camel's aggregation strategy, used by split,
 * multicast, recipientList and aggregate.
 */
export type AggregationStrategy<TResult = unknown, TPart = unknown> = (
  previous: Exchange<TResult> | undefined,
  next: Exchange<TPart>,
) => Exchange<TResult>;

/** A strategy collecting the bodies into an array, in arrival (or part) order. */
export function groupedBodies<TBody = unknown>(): AggregationStrategy<TBody[], TBody> {
  return (previous, next) => {
    if (previous === undefined) {
      const first = next as unknown as Exchange<TBody[]>;
      first.body = [next.body];
      return first;
    }
    previous.body.push(next.body);
    return previous;
  };
}

/** A strategy keeping the latest exchange: the last one wins (Camel's UseLatest). */
export function useLatest<TBody = unknown>(): AggregationStrategy<TBody, TBody> {
  return (_previous, next) => next;
}
