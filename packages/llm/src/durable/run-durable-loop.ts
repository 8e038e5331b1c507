import type { RouteContext } from "@routekit/core";
import { runDeadline } from "../bounded-call.js";
import { LlmError } from "../errors.js";
import { costOf, priceOf } from "../governance/model-prices.js";
import { quotaModel } from "../governance/quota-model.js";
import { addUsage, BudgetCheck, type BudgetStop, hasBudget } from "../governance/run-budget.js";
import type { ModelResponse, ToolCall, ToolCallResult } from "../model-types.js";
import { executeToolCall, type ToolCallEnvironment } from "../tool-loop/execute-tool-call.js";
import type { RunToolLoopOptions, ToolLoopResult } from "../tool-loop/tool-loop-types.js";
import type { Tool } from "../tool-types.js";
// The events this module emits are declared on core's RoutekitEvents there.
import type {} from "./run-events.js";
import type { RunStatus } from "./run-state.js";
import type { RunHandle } from "./run-store.js";

/** A request for a person's answer, as it is sent to the approvals endpoint. */
export interface ApprovalRequest {
  runId: string;
  callId: string;
  toolName: string;
  /** The call's arguments as the model wrote them (JSON text). */
  arguments: string;
  /** The route whose llm step asked. */
  requestedBy: string | undefined;
  requestedAt: number;
}

/** How a durable run's stretch of work ended here. */
export type DurableOutcome =
  | { status: "completed"; result: ToolLoopResult }
  | { status: "parked"; runId: string; pending: ApprovalRequest[] };

/** What the durable loop needs besides the loop's own options. */
export interface DurableLoopOptions {
  handle: RunHandle;
  loop: Omit<RunToolLoopOptions, "input" | "onPart" | "output">;
  context: RouteContext;
  /** Sends approval requests (after the parked state is written). */
  requestApproval: (request: ApprovalRequest) => Promise<void>;
}

/**
 * Runs a durable run from its checkpoint: a model turn recorded is never sent again, a tool result
 * recorded is never produced again, and the state is written after each model turn and each tool
 * result. Parks the run (and returns) when a call needs a person's answer.
 */
export async function runDurableLoop(options: DurableLoopOptions): Promise<DurableOutcome> {
  const { handle } = options;
  const loop =
    options.loop.quota === undefined
      ? options.loop
      : { ...options.loop, model: quotaModel(options.loop.model, options.loop.quota, options.loop.tenant) };
  const state = handle.state;
  const maxIterations = loop.maxIterations ?? 8;
  const deadline = runDeadline(loop.signal, loop.timeoutMs);
  const signal = deadline?.signal;
  const environment = toolEnvironment(loop, state, signal);
  const save = async (status: RunStatus): Promise<void> => {
    await handle.save(status);
    emit(options, "agent-run-checkpointed", { status, version: handle.version });
  };
  const budget = hasBudget(loop)
    ? new BudgetCheck(loop, priceOf(loop.prices, loop.model.provider, loop.model.model))
    : undefined;
  const stopByBudget = async (stop: BudgetStop): Promise<DurableOutcome> => {
    state.stopReason = "budget";
    state.budget = stop;
    if (state.text === undefined) state.text = lastAssistantText(state.messages);
    await save("completed");
    return completed(options, "budget");
  };
  handle.keepLease();
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const last = state.messages.at(-1);
      const calls = last?.role === "assistant" ? (last.toolCalls ?? []) : [];
      if (last?.role === "assistant" && calls.length === 0) return await recordEnd(options, save);
      if (calls.length > 0) {
        const pending = await answerCalls(options, calls, environment, save);
        if (pending.length > 0) return await park(options, pending, save);
        state.messages.push({
          role: "tool",
          results: calls.map((call) => state.results[call.id] as ToolCallResult),
        });
        state.toolCalls += calls.length;
        state.results = {};
        state.started = {};
        state.approvals = {};
        if (state.iteration >= maxIterations) {
          state.stopReason = "max_iterations";
          await save("completed");
          return completed(options, "max_iterations");
        }
        await save("running");
        continue;
      }
      const before = budget?.beforeCall(state.usage, state.messages, loop.system, loop.maxTokens);
      if (before !== undefined) return await stopByBudget(before);
      const response = await callModel(loop, state.messages, signal);
      state.iteration += 1;
      addUsage(state.usage, response.usage);
      state.messages.push(response.assistant);
      // The turn that crossed a budget stays in the conversation; its tool calls are not answered.
      const after = budget?.afterCall(state.usage);
      if (after !== undefined) return await stopByBudget(after);
      if (response.toolCalls.length === 0) {
        state.text = response.text;
        state.stopReason = response.stopReason === "tool_calls" ? "other" : response.stopReason;
        await save("completed");
        return completed(options, state.stopReason);
      }
      await save("running");
    }
  } catch (error) {
    throw deadline?.timedOut() ? timedOut(state, loop.timeoutMs, error) : error;
  } finally {
    handle.release();
    deadline?.clear();
  }
}

/** What executing a tool call of this run needs: the loop's tool options and the run's effect keys. */
function toolEnvironment(
  loop: DurableLoopOptions["loop"],
  state: RunHandle["state"],
  signal: AbortSignal | undefined,
): ToolCallEnvironment {
  return {
    tools: loop.tools,
    signal,
    toolTimeoutMs: loop.toolTimeoutMs,
    headers: loop.toolContext?.headers,
    onEvent: loop.onEvent,
    includeContent: loop.includeContent === true,
    toolErrors: loop.toolErrors ?? "safe",
    onToolError: loop.onToolError,
    onPart: undefined,
    racedBySignal: false,
    maxToolResultChars: loop.maxToolResultChars,
    effectKeyOf: (call) => effectKey(state.runId, state.iteration, call.id),
  };
}

/** One model turn of the run. */
function callModel(
  loop: DurableLoopOptions["loop"],
  messages: RunHandle["state"]["messages"],
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  const tools = Array.from(loop.tools.values());
  return loop.model.generate({
    messages,
    system: loop.system,
    tools,
    temperature: loop.temperature,
    maxTokens: loop.maxTokens,
    parallelToolCalls: tools.length > 0 ? (loop.parallelToolCalls ?? true) : undefined,
    signal,
  });
}

/**
 * A run whose last turn answered (no tool calls) but whose end was not recorded (its writer
 * stopped between the two, or a lease renewal wrote "running" over the end): records the end now,
 * so the run leaves "running" instead of being taken up by every recovery pass.
 */
async function recordEnd(
  options: DurableLoopOptions,
  save: (status: RunStatus) => Promise<void>,
): Promise<DurableOutcome> {
  const state = options.handle.state;
  state.text ??= lastAssistantText(state.messages);
  state.stopReason ??= "stop";
  await save("completed");
  return completed(options, state.stopReason);
}

/** The error of a run whose `timeoutMs` passed: its checkpoint stays for a later resume. */
function timedOut(state: RunHandle["state"], timeoutMs: number | undefined, error: unknown): LlmError {
  return new LlmError(
    "LOOP_LIMIT",
    `durable run '${state.runId}': the run's timeoutMs of ${timeoutMs} ms passed during iteration ${state.iteration + 1}; its checkpoint stays for a later resume`,
    { cause: error },
  );
}

/** The key of a call's effect: the same for the call on every retry, different for every other call. */
export function effectKey(runId: string, iteration: number, callId: string): string {
  return `${runId}:${iteration}:${callId}`;
}

/**
 * Answers the turn's calls that have no recorded result, each written as it arrives; answers the
 * approval requests of the calls that must wait for a person.
 */
async function answerCalls(
  options: DurableLoopOptions,
  calls: readonly ToolCall[],
  environment: ToolCallEnvironment,
  save: (status: RunStatus) => Promise<void>,
): Promise<ApprovalRequest[]> {
  const state = options.handle.state;
  const pending: ApprovalRequest[] = [];
  const answerOne = async (call: ToolCall): Promise<void> => {
    if (state.results[call.id] !== undefined) return;
    const tool = environment.tools.get(call.name);
    const gate = await approvalGate(options, call, tool);
    if (gate === "wait") {
      pending.push(approvalRequest(options, call));
      return;
    }
    if (gate !== "go") {
      state.results[call.id] = gate;
      await save("running");
      return;
    }
    if (tool?.durability?.effect === "once") {
      if (state.started[call.id] === true) {
        const known = await reconciled(call, tool, state.runId, state.iteration);
        if (known !== undefined) {
          state.results[call.id] = known;
          await save("running");
          return;
        }
      }
      state.started[call.id] = true;
      await save("running");
    }
    state.results[call.id] = await executeToolCall(call, environment, state.iteration);
    await save("running");
  };
  if (options.loop.parallelToolCalls === false) for (const call of calls) await answerOne(call);
  else await Promise.all(calls.map(answerOne));
  return pending;
}

/** "go", "wait" (a person must answer first), or the result of a call a person denied. */
async function approvalGate(
  options: DurableLoopOptions,
  call: ToolCall,
  tool: Tool | undefined,
): Promise<"go" | "wait" | ToolCallResult> {
  const rule = tool?.durability?.needsApproval;
  if (rule === undefined || rule === false) return "go";
  const state = options.handle.state;
  const approval = state.approvals[call.id];
  if (approval === undefined) {
    const needed =
      rule === true ||
      (await rule(parsedArguments(call), { runId: state.runId, callId: call.id, toolName: call.name }));
    if (!needed) return "go";
    state.approvals[call.id] = {
      toolName: call.name,
      argumentsText: call.argumentsText,
      requestedAt: Date.now(),
      status: "pending",
    };
    return "wait";
  }
  if (approval.status === "pending") return "wait";
  if (approval.status === "approved") return "go";
  const reason = approval.reason === undefined ? "" : `: ${approval.reason}`;
  return {
    callId: call.id,
    name: call.name,
    output: JSON.stringify({ error: `the call was not approved${reason}` }),
    isError: true,
  };
}

/** The result of an "once" call that started before a crash: what `reconcile` found, or "unknown". */
async function reconciled(
  call: ToolCall,
  tool: Tool,
  runId: string,
  iteration: number,
): Promise<ToolCallResult | undefined> {
  const reconcile = tool.durability?.reconcile;
  const key = effectKey(runId, iteration, call.id);
  if (reconcile === undefined) {
    return {
      callId: call.id,
      name: call.name,
      output: JSON.stringify({
        error: `the outcome of this call is unknown: it started but its result was lost (effect key ${key}); it was not run again`,
      }),
      isError: true,
    };
  }
  const found = await reconcile(parsedArguments(call), { effectKey: key, callId: call.id });
  if (found === undefined) return undefined;
  return { callId: call.id, name: call.name, output: found.output, isError: found.isError === true };
}

async function park(
  options: DurableLoopOptions,
  pending: ApprovalRequest[],
  save: (status: RunStatus) => Promise<void>,
): Promise<DurableOutcome> {
  const state = options.handle.state;
  await save("parked");
  // Only the requests this stretch made are sent; those already sent stay answered-or-waiting.
  for (const request of pending) {
    if (request.requestedAt === state.approvals[request.callId]?.requestedAt)
      await options.requestApproval(request);
  }
  emit(options, "agent-run-parked", { callIds: pending.map((request) => request.callId) });
  return { status: "parked", runId: state.runId, pending };
}

function approvalRequest(options: DurableLoopOptions, call: ToolCall): ApprovalRequest {
  const state = options.handle.state;
  const approval = state.approvals[call.id];
  return {
    runId: state.runId,
    callId: call.id,
    toolName: call.name,
    arguments: call.argumentsText,
    requestedBy: state.routeId,
    requestedAt: approval?.requestedAt ?? Date.now(),
  };
}

function completed(options: DurableLoopOptions, stopReason: ToolLoopResult["stopReason"]): DurableOutcome {
  const state = options.handle.state;
  const { model } = options.loop;
  const last = state.messages.at(-1);
  const text = state.text ?? (last?.role === "assistant" ? last.content : "");
  const result: ToolLoopResult = {
    text,
    messages: state.messages,
    stopReason,
    iterations: state.iteration,
    usage: { ...state.usage },
    provider: model.provider,
    model: model.model,
    toolCalls: state.toolCalls,
  };
  const price = priceOf(options.loop.prices, model.provider, model.model);
  if (price !== undefined) result.cost = costOf(state.usage, price);
  if (state.budget !== undefined) result.budget = state.budget;
  return { status: "completed", result };
}

/** The last non-empty text an assistant turn wrote. */
function lastAssistantText(messages: readonly { role: string; content?: unknown }[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "assistant" && typeof message.content === "string" && message.content !== "")
      return message.content;
  }
  return "";
}

function parsedArguments(call: ToolCall): unknown {
  if (call.arguments !== undefined) return call.arguments;
  try {
    return JSON.parse(call.argumentsText === "" ? "{}" : call.argumentsText);
  } catch {
    return call.argumentsText;
  }
}

function emit<TType extends "agent-run-checkpointed" | "agent-run-parked">(
  options: DurableLoopOptions,
  type: TType,
  fields: Record<string, unknown>,
): void {
  const events = options.context.events;
  if (!events.has(type)) return;
  const state = options.handle.state;
  events.emit(type, {
    runId: state.runId,
    routeId: state.routeId,
    iteration: state.iteration,
    ...fields,
  } as never);
}
