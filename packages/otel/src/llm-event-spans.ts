import { type Attributes, type Span, SpanKind, trace } from "@opentelemetry/api";
import type { EventBus } from "@routekit/core/internal";
import { redactUri } from "@routekit/core/internal";
import type { LlmEventType } from "@routekit/llm/internal";
import type { AgentRun, AgentRuns } from "./agent-run.js";
import { GEN_AI, GEN_AI_OPERATION, ROUTEKIT, SEMCONV } from "./attribute-names.js";
import { chatInputMessages, chatOutputMessages } from "./genai-content.js";
import { errorTypeOf, recordError } from "./record-error.js";
import type { Telemetry } from "./telemetry.js";

/**
 * The fields of `@routekit/llm`'s model and tool call events that spans and metrics read. Every
 * payload of its agent-run contract must fit this view (the listeners below pass them in, typed by
 * `RoutekitEvents` as @routekit/llm declares them), so a change there stops this file at compile time.
 */
interface LlmEvent {
  exchangeId: string;
  provider?: string;
  model?: string;
  iteration?: number;
  durationMs?: number;
  usage?: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
  };
  /** US dollars, when the model has a price (model-call-completed). */
  cost?: number;
  stopReason?: string;
  /** The model that answered and the provider's response id (model-call-completed). */
  responseModel?: string;
  responseId?: string;
  /** With the step's `includeContent`: the messages sent (started) and the assistant turn (completed). */
  messages?: readonly unknown[];
  message?: unknown;
  error?: Error;
  toolName?: string;
  callId?: string;
  isError?: boolean;
  arguments?: string;
  output?: string;
}

function chatAttributes(event: LlmEvent): Attributes {
  const attributes: Attributes = { [GEN_AI.operationName]: GEN_AI_OPERATION.chat };
  if (event.provider !== undefined) attributes[GEN_AI.providerName] = event.provider;
  if (event.model !== undefined) attributes[GEN_AI.requestModel] = event.model;
  return attributes;
}

function openChat(telemetry: Telemetry, run: AgentRun, event: LlmEvent): void {
  const attributes = chatAttributes(event);
  if (run.temperature !== undefined) attributes[GEN_AI.requestTemperature] = run.temperature;
  if (run.maxTokens !== undefined) attributes[GEN_AI.requestMaxTokens] = run.maxTokens;
  if (telemetry.recordContent && event.messages !== undefined)
    attributes[GEN_AI.inputMessages] = chatInputMessages(event.messages);
  const name = `${GEN_AI_OPERATION.chat} ${event.model ?? "model"}`;
  const span = telemetry.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, run.context);
  run.chat = span;
  run.open.add(span);
  if (event.provider !== undefined) run.span.setAttribute(GEN_AI.providerName, event.provider);
  if (event.model !== undefined) run.span.setAttribute(GEN_AI.requestModel, event.model);
}

function closeChat(telemetry: Telemetry, run: AgentRun, event: LlmEvent, failed: boolean): void {
  const span = run.chat;
  if (span === undefined) return;
  run.chat = undefined;
  run.open.delete(span);
  if (failed) recordError(span, event.error ?? new Error("model call failed"));
  else {
    if (event.usage !== undefined) setUsageAttributes(span, event.usage, event.cost);
    if (event.stopReason !== undefined) span.setAttribute(GEN_AI.responseFinishReasons, [event.stopReason]);
    if (event.responseModel !== undefined) span.setAttribute(GEN_AI.responseModel, event.responseModel);
    if (event.responseId !== undefined) span.setAttribute(GEN_AI.responseId, event.responseId);
    if (telemetry.recordContent && event.message !== undefined)
      span.setAttribute(GEN_AI.outputMessages, chatOutputMessages(event.message, event.stopReason));
  }
  span.end();
}

/** Tokens (the cache's too, when the provider reported them) and the cost of one model call. */
function setUsageAttributes(
  span: Span,
  usage: NonNullable<LlmEvent["usage"]>,
  cost: number | undefined,
): void {
  span.setAttribute(GEN_AI.usageInputTokens, usage.inputTokens);
  span.setAttribute(GEN_AI.usageOutputTokens, usage.outputTokens);
  if (usage.cachedInputTokens !== undefined)
    span.setAttribute(GEN_AI.usageCacheReadInputTokens, usage.cachedInputTokens);
  if (usage.cacheWriteInputTokens !== undefined)
    span.setAttribute(GEN_AI.usageCacheCreationInputTokens, usage.cacheWriteInputTokens);
  if (cost !== undefined) span.setAttribute(ROUTEKIT.llmCostUsd, cost);
}

function recordChatMetrics(telemetry: Telemetry, event: LlmEvent, failed: boolean): void {
  const instruments = telemetry.instruments;
  if (instruments === undefined) return;
  const attributes = chatAttributes(event);
  if (event.responseModel !== undefined) attributes[GEN_AI.responseModel] = event.responseModel;
  if (failed) attributes[SEMCONV.errorType] = errorTypeOf(event.error);
  if (event.durationMs !== undefined)
    instruments.operationDuration.record(event.durationMs / 1000, attributes);
  if (!failed && event.usage !== undefined) {
    instruments.tokenUsage.record(event.usage.inputTokens, { ...attributes, [GEN_AI.tokenType]: "input" });
    instruments.tokenUsage.record(event.usage.outputTokens, { ...attributes, [GEN_AI.tokenType]: "output" });
  }
}

function openTool(telemetry: Telemetry, run: AgentRun, event: LlmEvent): void {
  if (event.toolName === undefined || event.callId === undefined) return;
  const attributes: Attributes = {
    [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
    [GEN_AI.toolName]: event.toolName,
    [GEN_AI.toolCallId]: event.callId,
    // routekit tools run in this process, called by the loop with the model's arguments.
    [GEN_AI.toolType]: "function",
  };
  if (telemetry.recordContent && event.arguments !== undefined)
    attributes[GEN_AI.toolCallArguments] = redactUri(event.arguments);
  const name = `${GEN_AI_OPERATION.executeTool} ${event.toolName}`;
  const span = telemetry.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, run.context);
  run.open.add(span);
  // A model may repeat a call id; the earlier call's span stays open and ends with the run.
  run.tools.set(event.callId, { span, context: trace.setSpan(run.context, span) });
}

function closeTool(telemetry: Telemetry, run: AgentRun, event: LlmEvent): void {
  if (event.callId === undefined) return;
  const tool = run.tools.get(event.callId);
  if (tool === undefined) return;
  run.tools.delete(event.callId);
  run.open.delete(tool.span);
  if (event.isError === true)
    recordError(tool.span, event.error ?? new Error("the tool answered with an error"));
  else if (telemetry.recordContent && event.output !== undefined)
    tool.span.setAttribute(GEN_AI.toolCallResult, redactUri(event.output));
  tool.span.end();
}

/**
 * Chat and tool spans, and the GenAI metrics, from the llm step's model and tool call events;
 * returns what unsubscribes. Spans open under the step's `invoke_agent` run (found by exchange
 * id); metrics are recorded for every call, traced or not.
 */
export function subscribeLlmEvents(events: EventBus, telemetry: Telemetry, runs: AgentRuns): () => void {
  const listen = (type: LlmEventType, listener: (event: LlmEvent) => void) => events.on(type, listener);
  const stops = [
    listen("model-call-started", (event) => {
      const run = runs.get(event.exchangeId);
      if (run !== undefined) openChat(telemetry, run, event);
    }),
    listen("model-call-completed", (event) => {
      const run = runs.get(event.exchangeId);
      if (run !== undefined) closeChat(telemetry, run, event, false);
      recordChatMetrics(telemetry, event, false);
    }),
    listen("model-call-failed", (event) => {
      const run = runs.get(event.exchangeId);
      if (run !== undefined) closeChat(telemetry, run, event, true);
      recordChatMetrics(telemetry, event, true);
    }),
    listen("tool-call-started", (event) => {
      const run = runs.get(event.exchangeId);
      if (run !== undefined) openTool(telemetry, run, event);
    }),
    listen("tool-call-completed", (event) => {
      const run = runs.get(event.exchangeId);
      if (run !== undefined) closeTool(telemetry, run, event);
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** The llm event subscriptions of one plugin, one per context, made when an llm step first runs. */
export interface LlmEventHub {
  /** Subscribes to this context's llm events unless already subscribed. */
  ensure(events: EventBus): void;
  /** Unsubscribes from this context's llm events (when it stops). */
  release(events: EventBus): void;
}

/**
 * Subscribing only once an llm step runs keeps a context without one free of listeners: the
 * engine checks for listeners once per route run only while anyone listens.
 */
export function createLlmEventHub(telemetry: Telemetry, runs: AgentRuns): LlmEventHub {
  const subscriptions = new Map<EventBus, () => void>();
  return {
    ensure(events) {
      if (!subscriptions.has(events)) subscriptions.set(events, subscribeLlmEvents(events, telemetry, runs));
    },
    release(events) {
      subscriptions.get(events)?.();
      subscriptions.delete(events);
    },
  };
}
