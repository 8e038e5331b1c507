import { SpanKind } from "@opentelemetry/api";
import type { Processor, StepInfo } from "@routekit/core/internal";
import { ROUTEKIT } from "./attribute-names.js";
import { leaveSlot, slotOf, TraceSlot } from "./exchange-slot.js";
import { stepReadsContext } from "./reads-context.js";
import { recordError } from "./record-error.js";
import { runInSlot, type Settle } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/**
 * A span per step (`stepSpans`), INTERNAL, named after the step (`#2 choice`), for the route
 * runs drawn for it; sends and llm steps have spans of their own and are not wrapped twice.
 */
export function wrapStepInSpan(telemetry: Telemetry, step: StepInfo, next: Processor): Processor {
  const attributes = { [ROUTEKIT.routeId]: step.routeId, [ROUTEKIT.stepPath]: step.path };
  const activate = stepReadsContext(step.definition, telemetry.traitsOf);
  const settle: Settle = (slot, exchange, thrown) => {
    leaveSlot(exchange, slot);
    const error = exchange.error ?? thrown;
    if (slot.span === undefined) return;
    if (error !== undefined) recordError(slot.span, error, exchange.headers);
    slot.span.end();
  };
  return (exchange) => {
    const outer = slotOf(exchange);
    if (outer === undefined || !outer.steps) return next(exchange);
    const span = telemetry.tracer.startSpan(
      step.label,
      { kind: SpanKind.INTERNAL, attributes },
      outer.context,
    );
    const slot = new TraceSlot(outer.context, span, outer.sampled, true, outer);
    return runInSlot(slot, activate, next, exchange, settle);
  };
}
