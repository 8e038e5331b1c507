import { context as contextApi, type Link, type Span, SpanKind, TraceFlags } from "@opentelemetry/api";
import type { RoutekitEvents } from "@routekit/core";
import type { EventBus } from "@routekit/core/internal";
import type { AGENT_RUN_EVENT_TYPES } from "@routekit/llm/internal";
import type { AgentRuns } from "./agent-run.js";
import { GEN_AI, GEN_AI_OPERATION, ROUTEKIT } from "./attribute-names.js";
import { recordError } from "./record-error.js";
import type { Telemetry } from "./telemetry.js";

/** The durable run events read here; checked against @routekit/llm's list at compile time. */
const EVENTS = {
  acquired: "agent-run-acquired",
  released: "agent-run-released",
} as const satisfies Record<string, (typeof AGENT_RUN_EVENT_TYPES)[number]>;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A link to a span of an earlier stretch of the run, from the traceparent the run kept. */
function linkOf(traceparent: string): Link | undefined {
  const parts = TRACEPARENT.exec(traceparent);
  if (parts === null) return undefined;
  const [, traceId, spanId, flags] = parts as unknown as [string, string, string, string];
  return {
    context: { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true },
    attributes: { [ROUTEKIT.agentRunId]: "earlier" },
  };
}

function traceparentOf(span: Span): string | undefined {
  const { traceId, spanId, traceFlags } = span.spanContext();
  if ((traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/**
 * Spans of durable runs across processes: every stretch of a run (the first, and each one taken
 * up again after a crash, a redelivery or an approval) links its `invoke_agent` span to the spans
 * of the run's earlier stretches, whose traceparents the run keeps in its checkpoint. A stretch
 * run by an llm step uses that step's span; one resumed by `context.agents` (an approval, a
 * recovery pass) gets an `invoke_agent` span of its own, ended when the stretch ends.
 * Returns what unsubscribes (and ends the spans still open).
 */
export function subscribeDurableRuns(events: EventBus, telemetry: Telemetry, runs: AgentRuns): () => void {
  const resumed = new Map<string, Span>();
  const onAcquired = (event: RoutekitEvents[typeof EVENTS.acquired]): void => {
    if (!telemetry.tracing) return;
    const links = event.traces.map(linkOf).filter((link): link is Link => link !== undefined);
    let span = event.exchangeId === undefined ? undefined : runs.get(event.exchangeId)?.span;
    if (span === undefined) {
      // A step that is not traced (or not sampled) keeps it so; only context.agents' stretches get a span here.
      if (event.exchangeId !== undefined) return;
      const agent = event.routeId ?? "agent";
      span = telemetry.tracer.startSpan(
        `${GEN_AI_OPERATION.invokeAgent} ${agent}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: { [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent, [GEN_AI.agentName]: agent },
          links,
        },
        contextApi.active(),
      );
      resumed.get(event.runId)?.end();
      resumed.set(event.runId, span);
    } else if (links.length > 0) span.addLinks(links);
    span.setAttribute(ROUTEKIT.agentRunId, event.runId);
    const own = traceparentOf(span);
    if (own !== undefined) event.keepTrace(own);
  };
  const onReleased = (event: RoutekitEvents[typeof EVENTS.released]): void => {
    const span = resumed.get(event.runId);
    if (span === undefined) return;
    resumed.delete(event.runId);
    if (event.status === "interrupted") recordError(span, event.error ?? new Error("interrupted"));
    span.end();
  };
  const stops = [events.on(EVENTS.acquired, onAcquired), events.on(EVENTS.released, onReleased)];
  return () => {
    for (const stop of stops) stop();
    for (const span of resumed.values()) span.end();
    resumed.clear();
  };
}
