import { context as contextApi, INVALID_TRACEID, TraceFlags, trace } from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";
import type { SendFunction } from "@routekit/core/internal";
import { leaveSlot, TraceSlot } from "./exchange-slot.js";
import { traceFields, writeFields } from "./header-carrier.js";
import { recordError } from "./record-error.js";
import { runInSlot, type Settle } from "./run-in-context.js";
import type { SendTarget } from "./send-target.js";
import type { Telemetry } from "./telemetry.js";

const settle: Settle = (slot, exchange, thrown) => {
  leaveSlot(exchange, slot);
  const span = slot.span!;
  const error = exchange.error ?? thrown;
  if (error !== undefined) recordError(span, error, exchange.headers);
  span.end();
};

/**
 * A span per send made from user code through the context (`context.send`, `request`,
 * `requestExchange`, producer handles): PRODUCER, or CLIENT for an http: call, named and described
 * as a `to` step's, under the current context (the route span while a `process` step runs). A send
 * made outside any trace (no valid span context is current, as in application code calling
 * `context.request` at the top) is left as it is: the route it reaches starts the trace. Its
 * trace context goes into the new exchange's headers for the next hop and stays there: the
 * exchange is the context's own, and a seda: queue may take it as it is, after the send has
 * returned. A `direct:` route finds the span on the exchange. A trace that is not sampled gets no
 * span, but its context still travels.
 */
export function wrapContextSend(telemetry: Telemetry, target: SendTarget, send: SendFunction): SendFunction {
  const { name, kind, attributes, carried, prefixes, activate } = target;
  return (exchange: Exchange) => {
    const parent = contextApi.active();
    const upstream = trace.getSpanContext(parent);
    // (An invalid context, as a no-op tracer's span has, is no trace of anyone's.)
    if (upstream === undefined || upstream.traceId === INVALID_TRACEID) return send(exchange);
    if ((upstream.traceFlags & TraceFlags.SAMPLED) === 0) {
      if (carried) writeFields(traceFields(telemetry, parent), exchange.headers, prefixes);
      return send(exchange);
    }
    const span = telemetry.tracer.startSpan(name, { kind, attributes }, parent);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    const slot = new TraceSlot(parent, span, sampled, false, undefined);
    if (carried) writeFields(traceFields(telemetry, slot.context), exchange.headers, prefixes);
    return runInSlot(slot, activate, send, exchange, settle);
  };
}
