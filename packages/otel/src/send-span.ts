import { context as contextApi, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import type { Exchange, Processor, StepInfo } from "@routekit/core";
import { ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { endpointNames } from "./endpoint-names.js";
import { enterSlot, slotOf } from "./exchange-slot.js";
import { injectContext } from "./header-carrier.js";
import { recordError } from "./record-error.js";
import { runInContext, runThen } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/** Schemes whose consumer gets the same exchange in-process: no headers need to carry the trace. */
const SAME_EXCHANGE = new Set(["direct", "mock"]);

/**
 * A span per send to an endpoint (`to`, `wireTap`, `enrich`): PRODUCER, or CLIENT for an
 * http: call. The trace context goes into the message's headers for the next hop (`traceparent`
 * for seda: and RabbitMQ, `http.request.header.traceparent` for http:) and is taken off again
 * when the send is done. `log:` steps are not sends and get no span.
 */
export function wrapSendInSpan(
  telemetry: Telemetry,
  step: StepInfo,
  uri: string,
  next: Processor,
): Processor {
  const endpoint = endpointNames(uri);
  if (endpoint.scheme === "log") return next;
  const carried = !SAME_EXCHANGE.has(endpoint.scheme);
  const kind = endpoint.httpClient ? SpanKind.CLIENT : SpanKind.PRODUCER;
  const name = `send ${endpoint.address}`;
  const attributes: Record<string, string> = {
    [ROUTEKIT.routeId]: step.routeId,
    [ROUTEKIT.stepPath]: step.path,
    [ROUTEKIT.endpointUri]: endpoint.address,
  };
  if (!endpoint.httpClient) {
    if (endpoint.system !== undefined) attributes[SEMCONV.messagingSystem] = endpoint.system;
    attributes[SEMCONV.messagingDestinationName] = endpoint.path;
    attributes[SEMCONV.messagingOperationType] = "send";
    attributes[SEMCONV.messagingOperationName] = "send";
  }

  // A trace that is not sampled records nothing, but its context still travels with the message.
  const unsampled = (exchange: Exchange, parent: ReturnType<typeof contextApi.active>) => {
    if (!carried) return next(exchange);
    const restore = injectContext(telemetry, parent, exchange.headers, endpoint.injectPrefix);
    return runThen(next, exchange, () => restore(exchange.headers));
  };

  return (exchange) => {
    if (!telemetry.tracing) return next(exchange);
    const slot = slotOf(exchange);
    if (slot !== undefined && !slot.sampled) return unsampled(exchange, slot.context);
    const parent = slot?.context ?? contextApi.active();
    const parentSpan = slot === undefined ? trace.getSpanContext(parent) : undefined;
    if (parentSpan !== undefined && (parentSpan.traceFlags & TraceFlags.SAMPLED) === 0)
      return unsampled(exchange, parent);
    const span = telemetry.tracer.startSpan(name, { kind, attributes }, parent);
    const active = trace.setSpan(parent, span);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    const leave = enterSlot(exchange, { context: active, sampled, steps: slot?.steps ?? false });
    const restore = carried
      ? injectContext(telemetry, active, exchange.headers, endpoint.injectPrefix)
      : undefined;
    return runInContext(active, next, exchange, (thrown) => {
      restore?.(exchange.headers);
      leave();
      const error = exchange.error ?? thrown;
      if (error !== undefined) recordError(span, error);
      if (endpoint.httpClient) {
        const status = exchange.headers["http.status"];
        if (typeof status === "number") span.setAttribute(SEMCONV.httpResponseStatusCode, status);
      }
      span.end();
    });
  };
}
