import { SpanKind, trace } from "@opentelemetry/api";
import type { Processor, StepInfo } from "@routekit/core";
import { ROUTEKIT } from "./attribute-names.js";
import { enterSlot, slotOf } from "./exchange-slot.js";
import { recordError } from "./record-error.js";
import { runInContext } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/**
 * A span per step (`stepSpans`), INTERNAL, named after the step (`#2 choice`), for the route
 * runs drawn for it; sends and llm steps have spans of their own and are not wrapped twice.
 */
export function wrapStepInSpan(telemetry: Telemetry, step: StepInfo, next: Processor): Processor {
  const attributes = { [ROUTEKIT.routeId]: step.routeId, [ROUTEKIT.stepPath]: step.path };
  return (exchange) => {
    const slot = slotOf(exchange);
    if (slot === undefined || !slot.steps) return next(exchange);
    const span = telemetry.tracer.startSpan(
      step.label,
      { kind: SpanKind.INTERNAL, attributes },
      slot.context,
    );
    const active = trace.setSpan(slot.context, span);
    const leave = enterSlot(exchange, { context: active, sampled: slot.sampled, steps: true });
    return runInContext(active, next, exchange, (thrown) => {
      leave();
      const error = exchange.error ?? thrown;
      if (error !== undefined) recordError(span, error);
      span.end();
    });
  };
}
