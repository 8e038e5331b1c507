import type { Endpoint } from "../components/component.js";
import { RouteStepError, toError } from "../errors/errors.js";
import type { RuntimeExchange } from "../exchange/runtime-exchange.js";
import type { Exchange } from "../model/exchange.js";

/** What these functions send through: an endpoint, or its send wrapped by interceptors (`wrapSend`). */
export type Sender = Pick<Endpoint, "send">;

/**
 * Sends an exchange to an endpoint and gives it back when the endpoint is done with it —
 * synchronously when the endpoint completed synchronously. A thrown or rejected send (no
 * consumer, queue full) lands on `exchange.error`; this never throws.
 */
export function dispatch(endpoint: Sender, exchange: Exchange): Exchange | Promise<Exchange> {
  let result: void | Promise<void>;
  try {
    result = endpoint.send(exchange);
  } catch (error) {
    exchange.error = toError(error);
    return exchange;
  }
  if (result === undefined) return exchange;
  return result.then(
    () => exchange,
    (error: unknown) => {
      exchange.error = toError(error);
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

/** Sends `exchange`; a thrown send (no consumer, queue full) lands on `exchange.error`. */
function sendCatching(endpoint: Sender, exchange: Exchange): void | Promise<void> {
  try {
    return endpoint.send(exchange);
  } catch (error) {
    exchange.error = toError(error);
  }
}

/**
 * Sends a new exchange that has no deadline of its own and resolves with its reply body, or
 * rejects with its error (named by route and step): `context.request` and a producer's `request`.
 */
export function requestOn<TReply>(endpoint: Sender, exchange: Exchange): Promise<TReply> {
  const result = sendCatching(endpoint, exchange);
  if (result !== undefined) {
    return result.then(
      () => replyOf(exchange) as TReply,
      (error: unknown) => {
        exchange.error = toError(error);
        return replyOf(exchange) as TReply;
      },
    );
  }
  try {
    return Promise.resolve(replyOf(exchange) as TReply);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** As `requestOn`, for InOnly: resolves (with nothing) once the endpoint accepted the exchange. */
export function sendOn(endpoint: Sender, exchange: Exchange): Promise<void> {
  const result = sendCatching(endpoint, exchange);
  if (result !== undefined) {
    return result.then(
      () => void replyOf(exchange),
      (error: unknown) => {
        exchange.error = toError(error);
        replyOf(exchange);
      },
    );
  }
  try {
    replyOf(exchange);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
}
