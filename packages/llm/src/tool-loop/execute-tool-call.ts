import { truncateForMessage } from "@routekit/core/internal";
import { boundedByCaller, boundedCall } from "../bounded-call.js";
import { cutToolResult, DEFAULT_MAX_TOOL_RESULT_CHARS } from "../governance/cut-tool-result.js";
import type { ToolCall, ToolCallResult } from "../model-types.js";
import type { ArgumentsValidation } from "../schema/standard-validation.js";
import { validateFully } from "../schema/validate-arguments.js";
import type { Tool, ToolCallContext, ToolResult } from "../tool-types.js";
import type { LlmStreamPart, ToolResultPart } from "./stream-parts.js";
import { describeToolError, type ToolErrorPolicy } from "./tool-error-policy.js";
import type { ToolLoopEvent } from "./tool-loop-types.js";

/** What every tool call of a run shares. */
export interface ToolCallEnvironment {
  tools: ReadonlyMap<string, Tool>;
  signal: AbortSignal | undefined;
  toolTimeoutMs: number | undefined;
  headers: Record<string, unknown> | undefined;
  onEvent: ((event: ToolLoopEvent) => void) | undefined;
  includeContent: boolean;
  /** Tool arguments and outputs in stream parts (default: `includeContent`). */
  partContent?: boolean;
  toolErrors: ToolErrorPolicy;
  onToolError: ((error: Error, toolName: string, callId: string, argumentsText?: string) => void) | undefined;
  onPart: ((part: LlmStreamPart) => void) | undefined;
  /**
   * True when whoever waits for the calls also settles at `signal` (`TurnCalls.answer` races the
   * whole turn against it): a call without a per-tool deadline then waits for its tool directly,
   * with no listener of its own. False for calls that must each settle at once on an abort.
   */
  racedBySignal: boolean;
  /** A durable run's effect key of each call (see `ToolCallContext.effectKey`). */
  effectKeyOf?: (call: ToolCall) => string;
  /** Longest tool result the model reads, in characters, unless the tool sets its own; default 32000. */
  maxToolResultChars?: number | undefined;
}

/** The error behind a call's error result, kept for the call's completed event. */
interface Failure {
  error?: Error;
}

/**
 * Answers one tool call. Every failure — unknown tool, arguments that are not JSON or fail the
 * schema, a throwing or hanging tool — becomes an error result; only an abort of the run rejects.
 */
export function executeToolCall(
  call: ToolCall,
  environment: ToolCallEnvironment,
  iteration: number,
): Promise<ToolCallResult> {
  if (environment.onEvent === undefined && environment.onPart === undefined)
    return answer(call, environment, undefined);
  return reportedCall(call, environment, iteration);
}

/** `executeToolCall` with the call's events and stream parts. */
async function reportedCall(
  call: ToolCall,
  environment: ToolCallEnvironment,
  iteration: number,
): Promise<ToolCallResult> {
  const { onEvent, onPart } = environment;
  if (onEvent === undefined) {
    return reportResult(call, await answer(call, environment, undefined), environment, iteration);
  }
  const started = performance.now();
  const content = environment.includeContent ? { arguments: call.argumentsText } : undefined;
  onEvent({ type: "tool-call-started", toolName: call.name, callId: call.id, iteration, ...content });
  const failure: Failure = {};
  const result = await answer(call, environment, failure);
  const error = failure.error;
  onEvent({
    type: "tool-call-completed",
    toolName: call.name,
    callId: call.id,
    iteration,
    durationMs: performance.now() - started,
    isError: result.isError,
    ...(content === undefined ? undefined : { ...content, output: result.output }),
    ...(error === undefined ? undefined : { error }),
  });
  return onPart === undefined ? result : reportResult(call, result, environment, iteration);
}

/** Hands the answer to a call on to the run's stream. */
function reportResult(
  call: ToolCall,
  result: ToolCallResult,
  environment: ToolCallEnvironment,
  iteration: number,
): ToolCallResult {
  const part: ToolResultPart = {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    iteration,
    isError: result.isError,
  };
  if (environment.partContent ?? environment.includeContent) part.output = result.output;
  environment.onPart?.(part);
  return result;
}

function answer(
  call: ToolCall,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): Promise<ToolCallResult> {
  const tool = environment.tools.get(call.name);
  if (tool === undefined)
    return Promise.resolve(errorResult(call, unknownToolMessage(call.name, environment.tools)));
  // Arguments parsed here from the call's text are this call's own: checked in place. Arguments a
  // provider sent parsed are also in the conversation, so they are checked on a copy.
  const owned = call.arguments === undefined;
  const args = owned ? parseArgumentsText(call) : call.arguments;
  if (args instanceof InvalidArguments) return Promise.resolve(errorResult(call, args.message));
  let validated: ArgumentsValidation | Promise<ArgumentsValidation>;
  try {
    validated = validateFully(tool, args, owned);
  } catch (error) {
    return Promise.reject(error);
  }
  if (validated instanceof Promise) {
    return validated.then((checked) => runValidated(call, tool, checked, environment, failure));
  }
  return runValidated(call, tool, validated, environment, failure);
}

function runValidated(
  call: ToolCall,
  tool: Tool,
  checked: ArgumentsValidation,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): Promise<ToolCallResult> {
  // The message already names the tool and lists each failing path.
  if (!checked.ok) return Promise.resolve(errorResult(call, checked.message));
  if (environment.toolTimeoutMs === undefined && environment.racedBySignal) {
    return runTool(call, tool, checked.value, environment, failure);
  }
  return runBoundedTool(call, tool, checked.value, environment, failure);
}

/**
 * Runs the tool and waits for it. The caller settles at the run's signal on its own, so an abort
 * is only read here: before the tool starts, and when it ends (its answer then is not reported).
 */
async function runTool(
  call: ToolCall,
  tool: Tool,
  args: Record<string, unknown>,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): Promise<ToolCallResult> {
  const { signal } = environment;
  if (signal?.aborted) throw signal.reason;
  let value: ToolResult;
  try {
    value = await tool.execute(args, toolContext(call, environment, signal));
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return failedResult(call, asError(error), environment, failure);
  }
  if (signal?.aborted) throw signal.reason;
  return doneResult(call, tool, value, environment, failure);
}

/** Runs the tool bounded by its own deadline and the run's signal, settling at the first. */
async function runBoundedTool(
  call: ToolCall,
  tool: Tool,
  args: Record<string, unknown>,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): Promise<ToolCallResult> {
  const { toolTimeoutMs } = environment;
  const outcome = await boundedCall(
    (signal) => tool.execute(args, toolContext(call, environment, signal)),
    environment.signal,
    toolTimeoutMs,
  );
  if (outcome.status === "aborted") throw outcome.reason;
  if (outcome.status === "timed-out") {
    return errorResult(call, `tool '${truncateForMessage(call.name)}' timed out after ${toolTimeoutMs} ms`);
  }
  if (outcome.status === "failed") return failedResult(call, asError(outcome.error), environment, failure);
  return doneResult(call, tool, outcome.value, environment, failure);
}

/** The answer to a call whose tool returned. */
function doneResult(
  call: ToolCall,
  tool: Tool,
  returned: ToolResult,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): ToolCallResult {
  const value = returned as ToolResult | null | undefined;
  if (value?.isError === true && value.error instanceof Error) {
    return failedResult(call, value.error, environment, failure);
  }
  const result = toCallResult(call, returned);
  const limit = tool.maxResultChars ?? environment.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS;
  if (result.output.length > limit) result.output = cutToolResult(result.output, limit, call.name);
  return result;
}

/** The answer to a call whose tool threw or whose route failed, worded by the run's policy. */
function failedResult(
  call: ToolCall,
  error: Error,
  environment: ToolCallEnvironment,
  failure: Failure | undefined,
): ToolCallResult {
  if (failure !== undefined) failure.error = error;
  environment.onToolError?.(error, call.name, call.id, call.argumentsText);
  return errorResult(
    call,
    JSON.stringify({ error: describeToolError(error, call.name, environment.toolErrors) }),
  );
}

function toolContext(call: ToolCall, environment: ToolCallEnvironment, signal: AbortSignal | undefined) {
  const context: ToolCallContext = { callId: call.id };
  if (signal !== undefined) context.signal = signal;
  if (environment.toolTimeoutMs !== undefined) context.timeoutMs = environment.toolTimeoutMs;
  if (environment.headers !== undefined) context.headers = environment.headers;
  if (environment.effectKeyOf !== undefined) context.effectKey = environment.effectKeyOf(call);
  return boundedByCaller(context);
}

/** Why a call's argument text is not JSON, worded for the model. */
class InvalidArguments {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

function parseArgumentsText(call: ToolCall): unknown {
  const text = call.argumentsText;
  // Some servers send an empty string for a tool without parameters.
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new InvalidArguments(
      `arguments for tool '${truncateForMessage(call.name)}' are not valid JSON (${truncateForMessage(reason)}); send a JSON object`,
    );
  }
}

function toCallResult(call: ToolCall, result: ToolResult): ToolCallResult {
  if (typeof result !== "object" || result === null || typeof result.output !== "string") {
    return errorResult(
      call,
      `tool '${truncateForMessage(call.name)}' returned ${result === null ? "null" : typeof result}, expected { output: string, isError: boolean }`,
    );
  }
  return { callId: call.id, name: call.name, output: result.output, isError: result.isError === true };
}

function errorResult(call: ToolCall, output: string): ToolCallResult {
  return { callId: call.id, name: call.name, output, isError: true };
}

function unknownToolMessage(name: string, tools: ReadonlyMap<string, Tool>): string {
  const known = Array.from(tools.keys());
  return known.length === 0
    ? `unknown tool '${truncateForMessage(name)}': no tools are available`
    : `unknown tool '${truncateForMessage(name)}'; known tools: ${known.join(", ")}`;
}

function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new Error(typeof error === "string" ? error : (JSON.stringify(error) ?? String(error)));
}
