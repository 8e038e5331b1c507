import { context as contextApi, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import type { Exchange } from "@routekit/core";
import type { Processor, StepInfo } from "@routekit/core/internal";
import { parseUri } from "@routekit/core/internal";
import type { LLM_HEADERS } from "@routekit/llm";
import type { LLM_STREAM_PROPERTY } from "@routekit/llm/internal";
import { AGENT_RUN_KEY, type AgentRun, type AgentRuns } from "./agent-run.js";
import { GEN_AI, GEN_AI_OPERATION, ROUTEKIT } from "./attribute-names.js";
import { leaveSlot, slotOf, TraceSlot } from "./exchange-slot.js";
import { inputMessages, outputMessages, systemInstructions } from "./genai-content.js";
import type { LlmEventHub } from "./llm-event-spans.js";
import { recordError } from "./record-error.js";
import { runInSlot } from "./run-in-context.js";
import type { Telemetry } from "./telemetry.js";

/**
 * Headers and the property the llm step sets: its agent-run contract's names, checked against it
 * at compile time (imported type-only: this package does not load @routekit/llm).
 */
const LLM = {
  provider: "llm.provider",
  model: "llm.model",
  tokensIn: "llm.tokens.in",
  tokensOut: "llm.tokens.out",
  stopReason: "llm.stopReason",
  costUsd: "llm.costUsd",
  stream: "llm.stream",
} as const satisfies Pick<
  typeof LLM_HEADERS,
  "provider" | "model" | "tokensIn" | "tokensOut" | "stopReason" | "costUsd"
> & {
  stream: typeof LLM_STREAM_PROPERTY;
};

function numberOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function streamResult(value: unknown): Promise<unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const result = (value as { result?: unknown }).result;
  return result instanceof Promise ? result : undefined;
}

/** What the step left in its result headers: usage, provider, model and why the loop stopped. */
function setResultAttributes(run: AgentRun, exchange: Exchange, recordContent: boolean): void {
  const { span } = run;
  const headers = exchange.headers;
  const provider = headers[LLM.provider];
  if (typeof provider === "string") span.setAttribute(GEN_AI.providerName, provider);
  const model = headers[LLM.model];
  if (typeof model === "string") span.setAttribute(GEN_AI.requestModel, model);
  const tokensIn = headers[LLM.tokensIn];
  if (typeof tokensIn === "number") span.setAttribute(GEN_AI.usageInputTokens, tokensIn);
  const tokensOut = headers[LLM.tokensOut];
  if (typeof tokensOut === "number") span.setAttribute(GEN_AI.usageOutputTokens, tokensOut);
  const cost = headers[LLM.costUsd];
  if (typeof cost === "number") span.setAttribute(ROUTEKIT.llmCostUsd, cost);
  const stopReason = headers[LLM.stopReason];
  const finish = typeof stopReason === "string" ? stopReason : undefined;
  if (finish !== undefined) span.setAttribute(GEN_AI.responseFinishReasons, [finish]);
  if (recordContent) span.setAttribute(GEN_AI.outputMessages, outputMessages(exchange.body, finish));
}

/** Ends a run: its open chat and tool spans, then its own span with the step's result or error. */
function finishRun(
  runs: AgentRuns,
  run: AgentRun,
  exchange: Exchange,
  error: unknown,
  recordContent: boolean,
): void {
  if (runs.get(exchange.id) === run) runs.delete(exchange.id);
  for (const open of run.open) open.end();
  run.open.clear();
  run.tools.clear();
  if (error !== undefined) recordError(run.span, error, exchange.headers);
  else setResultAttributes(run, exchange, recordContent);
  run.span.end();
}

/**
 * The `invoke_agent {route id}` span around an llm step's tool loop (INTERNAL: the agent runs in
 * this process), current while the loop runs, so its chat and tool spans, the tool routes and
 * any instrumented HTTP client call nest under it. A streaming step's span ends with its stream.
 */
export function wrapAgentInSpan(
  telemetry: Telemetry,
  runs: AgentRuns,
  hub: LlmEventHub,
  step: StepInfo,
  uri: string,
  next: Processor,
): Processor {
  const { query } = parseUri(uri);
  const temperature = numberOption(query.get("temperature"));
  const maxTokens = numberOption(query.get("maxTokens"));
  const systemPrompt = query.get("systemPrompt");
  const streaming = query.get("stream") === "true";
  const name = `${GEN_AI_OPERATION.invokeAgent} ${step.routeId}`;
  const baseAttributes: Record<string, string | number> = {
    [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent,
    [GEN_AI.agentName]: step.routeId,
    [ROUTEKIT.routeId]: step.routeId,
    [ROUTEKIT.stepPath]: step.path,
  };
  if (temperature !== undefined) baseAttributes[GEN_AI.requestTemperature] = temperature;
  if (maxTokens !== undefined) baseAttributes[GEN_AI.requestMaxTokens] = maxTokens;

  return (exchange) => {
    const tracing = telemetry.tracing;
    if (tracing || telemetry.instruments !== undefined) hub.ensure(exchange.context.events);
    if (!tracing) return next(exchange);
    const slot = slotOf(exchange);
    if (slot !== undefined && !slot.sampled) return next(exchange);
    const parent = slot?.context ?? contextApi.active();
    const attributes = { ...baseAttributes };
    if (telemetry.recordContent) {
      attributes[GEN_AI.inputMessages] = inputMessages(exchange.body);
      if (systemPrompt !== undefined)
        attributes[GEN_AI.systemInstructions] = systemInstructions(systemPrompt);
    }
    const span = telemetry.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
    const spanContext = trace.setSpan(parent, span);
    const run: AgentRun = {
      span,
      context: spanContext,
      routeId: step.routeId,
      temperature,
      maxTokens,
      chat: undefined,
      tools: new Map(),
      open: new Set(),
    };
    const active = spanContext.setValue(AGENT_RUN_KEY, run);
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    if (sampled) runs.set(exchange.id, run);
    const own = new TraceSlot(parent, span, sampled, slot?.steps ?? false, slot).withContext(active);
    const streamBefore = exchange.properties[LLM.stream];
    return runInSlot(own, true, next, exchange, (_, exchange, thrown) => {
      leaveSlot(exchange, own);
      const error = exchange.error ?? thrown;
      const stream = exchange.properties[LLM.stream];
      const result =
        streaming && error === undefined && stream !== streamBefore ? streamResult(stream) : undefined;
      if (result === undefined) finishRun(runs, run, exchange, error, telemetry.recordContent);
      else
        result.then(
          () => finishRun(runs, run, exchange, undefined, telemetry.recordContent),
          (failure: unknown) => finishRun(runs, run, exchange, failure, telemetry.recordContent),
        );
    });
  };
}
