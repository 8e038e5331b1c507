import type { DeadlineSet, SignalSource } from "../exchange/exchange-deadline.js";
import type { Exchange } from "../model/exchange.js";
import type { ContextInternals } from "./context-internals.js";
import type { ExchangeInit, RouteContext } from "./context-types.js";

/**
 * A new exchange of `context` whose signal is `source`'s, made on first read, with no deadline of
 * its own: for a caller that bounds the work itself and would otherwise pay for two deadlines.
 * `source` must fire when the context aborts in-flight work: its owner is in `shutdownDeadlinesOf`.
 */
export function createExchangeUnder<TBody = unknown>(
  context: RouteContext,
  init: ExchangeInit<TBody>,
  source: SignalSource,
): Exchange<TBody> {
  return (context as ContextInternals).createExchangeUnder(init, source);
}

/**
 * The deadlines `context`'s current run aborts when it aborts in-flight work; a new set at each
 * start. One that is added after the run aborted is aborted at once.
 */
export function shutdownDeadlinesOf(context: RouteContext): DeadlineSet {
  return (context as ContextInternals).shutdownDeadlines;
}
