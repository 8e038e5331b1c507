import {
  type Context,
  context as contextApi,
  INVALID_TRACEID,
  type Span,
  SpanKind,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";
import type { Processor, RouteInfo } from "@routekit/core/internal";
import { headerRedactor } from "@routekit/core/internal";
import { AGENT_RUN_KEY, type AgentRun, type ToolRun } from "./agent-run.js";
import { GEN_AI, ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { type EndpointNames, endpointNames } from "./endpoint-names.js";
import { leaveSlot, slotOf, TraceSlot } from "./exchange-slot.js";
import { safeJson } from "./genai-content.js";
import { extractContext } from "./header-carrier.js";
import { HTTP } from "./http-header-names.js";
import { readsContextOf } from "./reads-context.js";
import { errorTypeOf, recordError } from "./record-error.js";
import { runInSlot, runThen, type Settle } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/** The header the llm step puts on a tool call's exchange (see `@routekit/llm`). */
const TOOL_CALL_ID_HEADER = "llm.tool.call_id";
const HTTP_METHOD = /^[A-Z]{1,16}$/;

/** The execute_tool span a tool route's exchange answers, when it is one. */
function toolRunOf(parent: Context, exchange: Exchange): ToolRun | undefined {
  const agent = parent.getValue(AGENT_RUN_KEY) as AgentRun | undefined;
  if (agent === undefined) return undefined;
  const callId = exchange.headers[TOOL_CALL_ID_HEADER];
  return typeof callId === "string" ? agent.tools.get(callId) : undefined;
}

/** Counts a run of a route in the metrics: exchanges, failures, duration (`started` 0: not timed). */
type RunCounter = (exchange: Exchange, thrown: unknown, started: number) => void;

function routeCounter(telemetry: Telemetry, routeId: string): RunCounter {
  const routeAttributes = { [ROUTEKIT.routeId]: routeId };
  return (exchange, thrown, started) => {
    const instruments = telemetry.instruments;
    if (instruments === undefined || started === 0) return;
    const error = exchange.error ?? thrown;
    instruments.exchanges.add(1, routeAttributes);
    const attributes =
      error === undefined
        ? routeAttributes
        : Object.assign({ [SEMCONV.errorType]: errorTypeOf(error) }, routeAttributes);
    if (error !== undefined) instruments.failures.add(1, attributes);
    instruments.routeDuration.record((performance.now() - started) / 1000, attributes);
  };
}

/** Starts a route's span and adds what the exchange says of itself to one that records. */
interface RouteSpans {
  start(exchange: Exchange, parent: Context): Span;
  describe(span: Span, exchange: Exchange): void;
}

function routeSpans(telemetry: Telemetry, routeId: string, endpoint: EndpointNames): RouteSpans {
  const server = endpoint.http === "server";
  const kind = server ? SpanKind.SERVER : SpanKind.CONSUMER;
  // What the span says from the start is fixed per route (a sampler may read it); what depends on
  // the exchange is added only to spans that record, so an unsampled trace costs no more.
  const startAttributes: Record<string, string> = {
    [ROUTEKIT.routeId]: routeId,
    [ROUTEKIT.endpointUri]: endpoint.address,
  };
  if (server) startAttributes[SEMCONV.httpRoute] = endpoint.path;
  else {
    if (endpoint.system !== undefined) startAttributes[SEMCONV.messagingSystem] = endpoint.system;
    startAttributes[SEMCONV.messagingDestinationName] = endpoint.path;
    startAttributes[SEMCONV.messagingOperationType] = "process";
  }
  const consumerName = `process ${endpoint.address}`;
  return {
    start(exchange, parent) {
      if (!server)
        return telemetry.tracer.startSpan(consumerName, { kind, attributes: startAttributes }, parent);
      const method = exchange.headers[HTTP.method];
      const verb = typeof method === "string" && HTTP_METHOD.test(method) ? method : "HTTP";
      const attributes = Object.assign(
        { [SEMCONV.httpRequestMethod]: verb === "HTTP" ? "_OTHER" : verb },
        startAttributes,
      );
      return telemetry.tracer.startSpan(`${verb} ${endpoint.path}`, { kind, attributes }, parent);
    },
    describe(span, exchange) {
      span.setAttribute(ROUTEKIT.exchangeId, exchange.id);
      const path = exchange.headers["http.path"];
      if (server && typeof path === "string") span.setAttribute(SEMCONV.urlPath, path.slice(0, 2048));
    },
  };
}

/** A run's end (made once per route: the run's state travels in its slot). */
function routeSettle(telemetry: Telemetry, server: boolean, count: RunCounter): Settle {
  return (slot, exchange, thrown) => {
    leaveSlot(exchange, slot);
    const span = slot.span;
    if (span !== undefined) {
      const error = exchange.error ?? thrown;
      if (server) {
        const status = exchange.headers[HTTP.status];
        if (typeof status === "number") span.setAttribute(SEMCONV.httpResponseStatusCode, status);
      }
      if (error !== undefined) recordError(span, error, exchange.headers);
      else if (slot.tool !== undefined && telemetry.recordContent)
        slot.tool.span.setAttribute(
          GEN_AI.toolCallResult,
          headerRedactor(exchange.headers)(safeJson(exchange.body)),
        );
      span.end();
    }
    count(exchange, thrown, slot.started);
  };
}

/**
 * The span of one exchange in one route, current while the route runs: CONSUMER for a route's
 * `from`, SERVER for an http: route. A `direct:` route nests under its caller (the same
 * exchange, or whatever span is current); any other route continues the trace its message
 * carries in its headers, or starts one. Routes whose steps cannot read the current context run
 * without entering it (see `routeReadsContext`).
 */
export function wrapRouteInSpan(telemetry: Telemetry, route: RouteInfo, next: Processor): Processor {
  const endpoint = endpointNames(route.from, telemetry.traitsOf);
  const inProcess = endpoint.sameExchange;
  const extractPrefix = endpoint.extractPrefix;
  const activate = readsContextOf(route.definition, telemetry.traitsOf);
  const count = routeCounter(telemetry, route.routeId);
  const untraced = (exchange: Exchange): void | Promise<void> =>
    telemetry.instruments === undefined ? next(exchange) : runThen(next, exchange, count, performance.now());
  const spans = routeSpans(telemetry, route.routeId, endpoint);
  const settle = routeSettle(telemetry, endpoint.http === "server", count);
  const start = (slot: TraceSlot, exchange: Exchange, activate: boolean): void | Promise<void> => {
    if (telemetry.instruments !== undefined) slot.started = performance.now();
    return runInSlot(slot, activate, next, exchange, settle);
  };

  return (exchange) => {
    if (!telemetry.tracing) return untraced(exchange);
    const outer = slotOf(exchange);
    // The caller's trace, for a direct: route; the message's own, for any other.
    let parent: Context;
    if (inProcess) {
      // A direct: route inside a trace that is not sampled records nothing: the caller's slot
      // stays, and its context is entered only when this route's steps may read it.
      if (outer !== undefined && !outer.sampled) {
        if (!activate) return untraced(exchange);
        return start(new TraceSlot(outer.context, undefined, false, false, outer), exchange, true);
      }
      parent = outer?.context ?? contextApi.active();
    } else {
      // Never the current context: a consumer's async context may belong to whoever woke it.
      parent = extractContext(telemetry, exchange.headers, extractPrefix);
    }
    const tool = toolRunOf(inProcess ? parent : contextApi.active(), exchange);
    if (tool !== undefined) {
      parent = tool.context;
      if (telemetry.recordContent)
        tool.span.setAttribute(
          GEN_AI.toolCallArguments,
          headerRedactor(exchange.headers)(safeJson(exchange.body)),
        );
    }
    const upstream = trace.getSpanContext(parent);
    // A trace its upstream chose not to sample records nothing here either (what the SDK's
    // default parent-based sampler decides), without asking the SDK for a span; the decision
    // still travels. (An invalid context, as a no-op tracer's span has, is no decision of anyone's.)
    if (
      upstream !== undefined &&
      (upstream.traceFlags & TraceFlags.SAMPLED) === 0 &&
      upstream.traceId !== INVALID_TRACEID
    ) {
      // Already current when a direct: route is called with that context active.
      const current = inProcess && tool === undefined && outer === undefined;
      return start(new TraceSlot(parent, undefined, false, false, outer), exchange, activate && !current);
    }
    const span = spans.start(exchange, parent);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    if (span.isRecording()) spans.describe(span, exchange);
    const steps = sampled && telemetry.stepSample > 0 && Math.random() < telemetry.stepSample;
    const slot = new TraceSlot(parent, span, sampled, steps, outer);
    slot.tool = tool;
    return start(slot, exchange, activate);
  };
}
