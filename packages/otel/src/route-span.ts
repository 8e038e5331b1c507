import {
  type Context,
  context as contextApi,
  INVALID_TRACEID,
  type Span,
  SpanKind,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { Exchange, Processor, RouteInfo } from "@routekit/core";
import { AGENT_RUN_KEY, type AgentRun } from "./agent-run.js";
import { GEN_AI, ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { endpointNames } from "./endpoint-names.js";
import { enterSlot, slotOf } from "./exchange-slot.js";
import { safeJson } from "./genai-content.js";
import { extractContext } from "./header-carrier.js";
import { errorTypeOf, recordError } from "./record-error.js";
import { runInContext, runThen } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/** The header the llm step puts on a tool call's exchange (see `@routekit/llm`). */
const TOOL_CALL_ID_HEADER = "llm.tool.call_id";
const HTTP_METHOD = /^[A-Z]{1,16}$/;

/** The execute_tool span a tool route's exchange answers, when it is one. */
function toolRunOf(parent: Context, exchange: Exchange) {
  const agent = parent.getValue(AGENT_RUN_KEY) as AgentRun | undefined;
  if (agent === undefined) return undefined;
  const callId = exchange.headers[TOOL_CALL_ID_HEADER];
  return typeof callId === "string" ? agent.tools.get(callId) : undefined;
}

/**
 * The span of one exchange in one route, current while the route runs: CONSUMER for a route's
 * `from`, SERVER for an http: route. A `direct:` route nests under its caller (the same
 * exchange, or whatever span is current); any other route continues the trace its message
 * carries in its headers, or starts one.
 */
export function wrapRouteInSpan(telemetry: Telemetry, route: RouteInfo, next: Processor): Processor {
  const endpoint = endpointNames(route.from);
  const server = endpoint.scheme === "http" || endpoint.scheme === "https";
  const inProcess = endpoint.scheme === "direct";
  const kind = server ? SpanKind.SERVER : SpanKind.CONSUMER;
  const extractPrefix = server ? "http.header." : "";
  const routeAttributes = { [ROUTEKIT.routeId]: route.routeId };

  const measured = (exchange: Exchange): void | Promise<void> => {
    const started = performance.now();
    return runThen(next, exchange, (thrown) => count(exchange, thrown, started));
  };
  const count = (exchange: Exchange, thrown: unknown, started: number): void => {
    const instruments = telemetry.instruments;
    if (instruments === undefined) return;
    const error = exchange.error ?? thrown;
    instruments.exchanges.add(1, routeAttributes);
    const attributes =
      error === undefined ? routeAttributes : { ...routeAttributes, [SEMCONV.errorType]: errorTypeOf(error) };
    if (error !== undefined) instruments.failures.add(1, attributes);
    instruments.routeDuration.record((performance.now() - started) / 1000, attributes);
  };

  // What the span says from the start is fixed per route (a sampler may read it); what depends on
  // the exchange is added only to spans that record, so an unsampled trace costs no more.
  const startAttributes: Record<string, string> = {
    [ROUTEKIT.routeId]: route.routeId,
    [ROUTEKIT.endpointUri]: endpoint.address,
  };
  if (server) startAttributes[SEMCONV.httpRoute] = endpoint.path;
  else {
    if (endpoint.system !== undefined) startAttributes[SEMCONV.messagingSystem] = endpoint.system;
    startAttributes[SEMCONV.messagingDestinationName] = endpoint.path;
    startAttributes[SEMCONV.messagingOperationType] = "process";
  }
  const consumerName = `process ${endpoint.address}`;

  const startSpan = (exchange: Exchange, parent: Context): Span => {
    if (!server)
      return telemetry.tracer.startSpan(consumerName, { kind, attributes: startAttributes }, parent);
    const method = exchange.headers["http.method"];
    const verb = typeof method === "string" && HTTP_METHOD.test(method) ? method : "HTTP";
    const attributes = { ...startAttributes, [SEMCONV.httpRequestMethod]: verb === "HTTP" ? "_OTHER" : verb };
    return telemetry.tracer.startSpan(`${verb} ${endpoint.path}`, { kind, attributes }, parent);
  };

  const describeExchange = (span: Span, exchange: Exchange): void => {
    span.setAttribute(ROUTEKIT.exchangeId, exchange.id);
    const path = exchange.headers["http.path"];
    if (server && typeof path === "string") span.setAttribute(SEMCONV.urlPath, path.slice(0, 2048));
  };

  // A trace its upstream chose not to sample records nothing here either (what the SDK's default
  // parent-based sampler decides), without asking the SDK for a span; the decision still travels.
  // (Per-message callbacks are anonymous arrows calling functions made once per route.)
  const leaveUnsampled = (exchange: Exchange, leave: () => void, started: number, thrown: unknown): void => {
    leave();
    if (started !== 0) count(exchange, thrown, started);
  };
  const unsampled = (exchange: Exchange, parent: Context, current: boolean): void | Promise<void> => {
    const leave = enterSlot(exchange, { context: parent, sampled: false, steps: false });
    const started = telemetry.instruments === undefined ? 0 : performance.now();
    if (current) return runThen(next, exchange, (thrown) => leaveUnsampled(exchange, leave, started, thrown));
    return runInContext(parent, next, exchange, (thrown) => leaveUnsampled(exchange, leave, started, thrown));
  };

  return (exchange) => {
    if (!telemetry.tracing) return telemetry.instruments === undefined ? next(exchange) : measured(exchange);
    const outer = slotOf(exchange);
    // The caller's trace, for a direct: route; the message's own, for any other.
    let parent: Context;
    if (inProcess) {
      if (outer !== undefined && !outer.sampled)
        return telemetry.instruments === undefined ? next(exchange) : measured(exchange);
      parent = outer?.context ?? contextApi.active();
    } else {
      // Never the current context: a consumer's async context may belong to whoever woke it.
      parent = extractContext(telemetry, exchange.headers, extractPrefix);
    }
    const tool = toolRunOf(inProcess ? parent : contextApi.active(), exchange);
    if (tool !== undefined) {
      parent = tool.context;
      if (telemetry.recordContent) tool.span.setAttribute(GEN_AI.toolCallArguments, safeJson(exchange.body));
    }
    const upstream = trace.getSpanContext(parent);
    // (An invalid context, as a no-op tracer's span has, is no decision of anyone's.)
    if (
      upstream !== undefined &&
      (upstream.traceFlags & TraceFlags.SAMPLED) === 0 &&
      upstream.traceId !== INVALID_TRACEID
    )
      return unsampled(exchange, parent, inProcess && tool === undefined && outer === undefined);
    const span = startSpan(exchange, parent);
    const active = trace.setSpan(parent, span);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    if (span.isRecording()) describeExchange(span, exchange);
    const steps = sampled && telemetry.stepSample > 0 && Math.random() < telemetry.stepSample;
    const leave = enterSlot(exchange, { context: active, sampled, steps });
    const started = telemetry.instruments === undefined ? 0 : performance.now();
    return runInContext(active, next, exchange, (thrown) => {
      leave();
      const error = exchange.error ?? thrown;
      if (server) {
        const status = exchange.headers["http.status"];
        if (typeof status === "number") span.setAttribute(SEMCONV.httpResponseStatusCode, status);
      }
      if (error !== undefined) recordError(span, error);
      else if (tool !== undefined && telemetry.recordContent)
        tool.span.setAttribute(GEN_AI.toolCallResult, safeJson(exchange.body));
      span.end();
      if (started !== 0) count(exchange, thrown, started);
    });
  };
}
