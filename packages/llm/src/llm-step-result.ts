import type { Exchange, RouteContext } from "@routekit/core";
import { LLM_HEADERS, LLM_MESSAGES_PROPERTY } from "./agent-run-contract.js";
import { llmSpendOf } from "./governance/llm-spend.js";
import type { LlmSettings } from "./llm-settings.js";
import type { RunToolLoopOptions, ToolLoopResult } from "./tool-loop/tool-loop-types.js";

/** The tenant a run's spend is summed under: the named header's value, a string of at most 256 characters. */
export function tenantOf(exchange: Exchange, header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = exchange.headers[header];
  if (typeof value !== "string" || value === "") return undefined;
  return value.length > 256 ? value.slice(0, 256) : value;
}

/** The headers of a run's result, its spend in the context's accounting, and its completed event. */
export function reportRun(
  context: RouteContext,
  settings: LlmSettings,
  exchange: Exchange,
  result: ToolLoopResult,
): void {
  setResultHeaders(exchange, result);
  const tenant = tenantOf(exchange, settings.tenantHeader);
  llmSpendOf(context).record({
    routeId: exchange.routeId,
    tenant,
    usage: result.usage,
    cost: result.cost,
    stoppedByBudget: result.budget !== undefined,
  });
  if (!context.events.has("llm-run-completed")) return;
  context.events.emit("llm-run-completed", {
    routeId: exchange.routeId,
    exchangeId: exchange.id,
    tenant,
    provider: result.provider,
    model: result.model,
    usage: { ...result.usage },
    ...(result.cost === undefined ? undefined : { cost: result.cost }),
    stopReason: result.stopReason,
    ...(result.budget === undefined ? undefined : { budget: result.budget }),
    iterations: result.iterations,
    toolCalls: result.toolCalls,
  });
}

/** The dead letters of one run: what a failed tool call calls, and the wait for their delivery. */
export interface RunLetters {
  onToolError: NonNullable<RunToolLoopOptions["onToolError"]>;
  delivered(): Promise<void>;
}

/** A streamed run's result once its dead letters were delivered (a failed run fails after them too). */
export async function waitForLetters(
  result: Promise<ToolLoopResult>,
  letters: RunLetters,
): Promise<ToolLoopResult> {
  try {
    return await result;
  } finally {
    await letters.delivered();
  }
}

/** The headers and the conversation property the step sets from a run's result. */
function setResultHeaders(exchange: Exchange, result: ToolLoopResult): void {
  exchange.headers[LLM_HEADERS.provider] = result.provider;
  exchange.headers[LLM_HEADERS.model] = result.model;
  exchange.headers[LLM_HEADERS.tokensIn] = result.usage.inputTokens;
  exchange.headers[LLM_HEADERS.tokensOut] = result.usage.outputTokens;
  exchange.headers[LLM_HEADERS.stopReason] = result.stopReason;
  exchange.headers[LLM_HEADERS.iterations] = result.iterations;
  exchange.headers[LLM_HEADERS.toolCalls] = result.toolCalls;
  if (result.cost !== undefined) exchange.headers[LLM_HEADERS.costUsd] = result.cost;
  if (result.budget !== undefined) exchange.headers[LLM_HEADERS.budget] = result.budget.budget;
  exchange.properties[LLM_MESSAGES_PROPERTY] = result.messages;
}
