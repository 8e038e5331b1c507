import type { Endpoint } from "../components/component.js";
import type { RuntimeExchange } from "./create-exchange.js";
import { RouteStepError } from "../errors/errors.js";
import type { Exchange } from "../model/exchange.js";

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Sends an exchange to an endpoint and gives it back when the endpoint is done with it —
 * synchronously when the endpoint completed synchronously. A thrown or rejected send (no
 * consumer, queue full) lands on `exchange.error`; this never throws.
 */
export function dispatch(endpoint: Endpoint, exchange: Exchange): Exchange | Promise<Exchange> {
  let result: void | Promise<void>;
  try {
    result = endpoint.send(exchange);
  } catch (error) {
    exchange.error = asError(error);
    return exchange;
  }
  if (result === undefined) return exchange;
  return result.then(
    () => exchange,
    (error: unknown) => {
      exchange.error = asError(error);
      return exchange;
    },
  );
}

/** The reply body, or the exchange's error thrown naming the route and step where it was raised. */
export function replyOf(exchange: Exchange): unknown {
  const error = exchange.error;
  if (error === undefined) return exchange.body;
  const failure = (exchange as RuntimeExchange).failure;
  if (failure === undefined || error instanceof RouteStepError) throw error;
  throw new RouteStepError(failure.routeId, failure.step, error);
}
