import type { Context } from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";

/**
 * The trace state of an exchange inside a traced route, kept in its properties (route-local,
 * never sent): the context the next span nests under, whether that trace is sampled, and whether
 * this route run records step spans. Steps and `direct:` sub-routes read it with one property
 * read, without asking the context manager.
 */
export interface TraceSlot {
  readonly context: Context;
  readonly sampled: boolean;
  readonly steps: boolean;
}

/** The exchange property holding the `TraceSlot`. */
export const TRACE_SLOT_PROPERTY = "routekit.otel.trace";

export function slotOf(exchange: Exchange): TraceSlot | undefined {
  return exchange.properties[TRACE_SLOT_PROPERTY] as TraceSlot | undefined;
}

/**
 * Puts `slot` on the exchange and returns what restores the previous one (`undefined` after the
 * outermost traced route: set, not deleted, which keeps the properties object's shape).
 */
export function enterSlot(exchange: Exchange, slot: TraceSlot): () => void {
  const properties = exchange.properties;
  const previous = properties[TRACE_SLOT_PROPERTY];
  properties[TRACE_SLOT_PROPERTY] = slot;
  return () => {
    properties[TRACE_SLOT_PROPERTY] = previous;
  };
}
