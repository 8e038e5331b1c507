import type { Exchange } from "../model/exchange.js";

/** The step label a rejected message's failure names. */
export const REJECTION_LABEL = "(not processed)";

const reasons = new WeakMap<Exchange, Error>();

/** Records why `exchange` is rejected, before it runs through a route's rejection pipeline. */
export function setRejection(exchange: Exchange, reason: Error): void {
  reasons.set(exchange, reason);
}

/** The one step of a rejection pipeline: fails with the recorded reason. */
export function rejectionStep(exchange: Exchange): void {
  const reason = reasons.get(exchange) ?? new Error("The message was rejected before its route ran");
  reasons.delete(exchange);
  throw reason;
}
