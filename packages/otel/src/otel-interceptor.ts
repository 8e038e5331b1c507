import type { StepDefinition, StepInterceptor } from "@routekit/core";
import { stepShape } from "@routekit/core/internal";
import type { AgentRuns } from "./agent-run.js";
import { wrapAgentInSpan } from "./agent-span.js";
import { wrapContextSend } from "./context-send-span.js";
import { slotOf } from "./exchange-slot.js";
import type { LlmEventHub } from "./llm-event-spans.js";
import { wrapRouteInSpan } from "./route-span.js";
import { wrapSendInSpan } from "./send-span.js";
import { stepTarget, uriTarget } from "./send-target.js";
import { wrapStepInSpan } from "./step-span.js";
import type { Telemetry } from "./telemetry.js";

/**
 * The one endpoint a step sends the exchange (or a copy) to itself, named when the route is built
 * (`to`, `wireTap`, `enrich`: what their shapes declare as `send`), or undefined.
 */
function sendTargetOf(definition: StepDefinition): string | undefined {
  const endpoints = stepShape(definition.type)?.endpoints?.(definition);
  if (endpoints?.length !== 1 || endpoints[0]!.role !== "send") return undefined;
  return endpoints[0]!.uri;
}

/**
 * The plugin's interceptor: a span around every route run, a span per send step, the `invoke_agent`
 * span around llm steps, step spans when asked for (a `toD` or `recipientList` step gets one
 * like any other step), and, through `wrapSend`, a span per destination a `toD` or
 * `recipientList` step sends to and per send user code makes through the context. Steps it has
 * nothing to do with, every route added and every send first made to a URI while no SDK is
 * registered, are left as they are (their `next` or `send` is returned), so they cost nothing more.
 */
export function createOtelInterceptor(
  telemetry: Telemetry,
  runs: AgentRuns,
  hub: LlmEventHub,
): StepInterceptor {
  return {
    name: "otel",
    wrapRoute(route, next) {
      if (telemetry.observed()) return wrapRouteInSpan(telemetry, route, next);
      telemetry.unobserved.push(route.routeId);
      return next;
    },
    wrapStep(step, next) {
      if (!telemetry.observed()) return next;
      const uri = sendTargetOf(step.definition);
      if (uri !== undefined) {
        if (step.definition.type === "to" && telemetry.traitsOf(uri)?.agent === true)
          return wrapAgentInSpan(telemetry, runs, hub, step, uri, next);
        const target = stepTarget(step, uri, telemetry.traitsOf);
        return target === undefined ? next : wrapSendInSpan(telemetry, target, next);
      }
      return telemetry.stepSample > 0 ? wrapStepInSpan(telemetry, step, next) : next;
    },
    wrapSend(uri, send, step) {
      telemetry.observed();
      if (!telemetry.tracing) return send;
      if (step === undefined) {
        const target = uriTarget(uri, {}, telemetry.traitsOf);
        return target === undefined ? send : wrapContextSend(telemetry, target, send);
      }
      // A destination of a toD or recipientList step: a span like a `to` step's, in the route's
      // trace; a route that is not traced (added while no SDK was registered) is left as it is.
      const target = stepTarget(step, uri, telemetry.traitsOf);
      if (target === undefined) return send;
      const traced = wrapSendInSpan(telemetry, target, send);
      return (exchange) => (slotOf(exchange) === undefined ? send(exchange) : traced(exchange));
    },
  };
}
