import { type Context, context as contextApi, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { SEMCONV } from "./attribute-names.js";
import { leaveSlot, slotOf, TraceSlot } from "./exchange-slot.js";
import { traceFields, writeFields } from "./header-carrier.js";
import { HTTP } from "./http-header-names.js";
import { recordError } from "./record-error.js";
import { runInSlot, type Settle } from "./run-in-context.js";
import type { SendTarget } from "./send-target.js";
import type { Telemetry } from "./telemetry.js";

/**
 * A span per send step (`to`, `wireTap`, `enrich`, multicast branches) and per destination a
 * `toD` or `recipientList` step sends to (through `wrapSend`): PRODUCER, or CLIENT for an http:
 * call. The trace context goes into the message's headers for
 * the next hop (`traceparent` for seda: and RabbitMQ, `http.request.header.traceparent` for
 * http:) and is taken off again when the send is done; a `direct:` route finds it on the
 * exchange. A trace that is not sampled gets no span, but its context still travels, its header
 * values made once per route run.
 */
export function wrapSendInSpan(telemetry: Telemetry, target: SendTarget, next: Processor): Processor {
  const { name, kind, attributes, carried, prefixes, activate } = target;

  const settle: Settle = (slot, exchange, thrown) => {
    slot.restore?.(exchange.headers);
    leaveSlot(exchange, slot);
    const span = slot.span;
    if (span === undefined) return;
    const error = exchange.error ?? thrown;
    if (error !== undefined) recordError(span, error, exchange.headers);
    if (kind === SpanKind.CLIENT) {
      const status = exchange.headers[HTTP.status];
      if (typeof status === "number") span.setAttribute(SEMCONV.httpResponseStatusCode, status);
    }
    span.end();
  };

  const unsampled = (exchange: Exchange, outer: TraceSlot | undefined, parent: Context) => {
    const slot = new TraceSlot(parent, undefined, false, false, outer);
    const fields = outer?.fields ?? traceFields(telemetry, parent);
    if (outer !== undefined) outer.fields = fields;
    slot.restore = writeFields(fields, exchange.headers, prefixes);
    return runInSlot(slot, false, next, exchange, settle);
  };

  return (exchange) => {
    if (!telemetry.tracing) return next(exchange);
    const outer = slotOf(exchange);
    if (outer !== undefined && !outer.sampled)
      return carried ? unsampled(exchange, outer, outer.context) : next(exchange);
    const parent = outer?.context ?? contextApi.active();
    if (outer === undefined) {
      const upstream = trace.getSpanContext(parent);
      if (upstream !== undefined && (upstream.traceFlags & TraceFlags.SAMPLED) === 0)
        return carried ? unsampled(exchange, undefined, parent) : next(exchange);
    }
    const span = telemetry.tracer.startSpan(name, { kind, attributes }, parent);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    const slot = new TraceSlot(parent, span, sampled, outer?.steps ?? false, outer);
    if (carried) slot.restore = writeFields(traceFields(telemetry, slot.context), exchange.headers, prefixes);
    return runInSlot(slot, activate, next, exchange, settle);
  };
}
