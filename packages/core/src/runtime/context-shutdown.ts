import { setMaxListeners } from "node:events";
import { DeadlineSet, releaseExchange } from "../exchange/exchange-deadline.js";
import type { Exchange } from "../model/exchange.js";

/** A context's shutdown signal and the deadlines of its exchanges. */
export interface ContextShutdown {
  readonly controller: AbortController;
  readonly deadlines: DeadlineSet;
}

/**
 * The context's shutdown signal and the deadlines of its exchanges. The signal is shared by every
 * in-flight exchange, so it legitimately has many listeners (tool calls, HTTP calls, timers): no
 * max-listeners warning for it. An exchange with its own deadline or caller signal joins
 * `deadlines` instead of listening on the shutdown signal: one listener on that long-lived signal
 * aborts them all, and a finished exchange simply leaves.
 */
export function createShutdown(): ContextShutdown {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const deadlines = new DeadlineSet();
  controller.signal.addEventListener("abort", () => deadlines.abortAll(controller.signal.reason), {
    once: true,
  });
  return { controller, deadlines };
}

/** Releases an exchange's deadline and hands the exchange on (for `.then`). */
export function releasedAfter(exchange: Exchange): Exchange {
  releaseExchange(exchange);
  return exchange;
}
