import type { Exchange } from "../../model/exchange.js";
import type { AggregationStrategy } from "../../model/step-inputs.js";

export type { AggregationStrategy };

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
