import { boundedByCaller, boundedCall } from "../bounded-call.js";
import type { ToolCall, ToolCallResult } from "../model-types.js";
import {
  validateParsedToolArgumentsAsync,
  validateToolArgumentsAsync,
} from "../schema/validate-arguments.js";
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
  toolErrors: ToolErrorPolicy;
  onToolError: ((error: Error, toolName: string, callId: string) => void) | undefined;
  onPart: ((part: LlmStreamPart) => void) | undefined;
}

/** A call's answer, with the error behind it when a tool threw or its route failed. */
interface Answer {
  result: ToolCallResult;
  error?: Error;
}

/**
 * Answers one tool call. Every failure — unknown tool, arguments that are not JSON or fail the
 * schema, a throwing or hanging tool — becomes an error result; only an abort of the run rejects.
 */
export async function executeToolCall(
  call: ToolCall,
  environment: ToolCallEnvironment,
  iteration: number,
): Promise<ToolCallResult> {
  const { onEvent, onPart } = environment;
  if (onEvent === undefined) {
    if (onPart === undefined) return (await answer(call, environment)).result;
    return reportResult(call, (await answer(call, environment)).result, environment, iteration);
  }
  const started = performance.now();
  const content = environment.includeContent ? { arguments: call.argumentsText } : undefined;
  onEvent({ type: "tool-call-started", toolName: call.name, callId: call.id, iteration, ...content });
  const { result, error } = await answer(call, environment);
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
  if (environment.includeContent) part.output = result.output;
  environment.onPart?.(part);
  return result;
}

async function answer(call: ToolCall, environment: ToolCallEnvironment): Promise<Answer> {
  const tool = environment.tools.get(call.name);
  if (tool === undefined)
    return { result: errorResult(call, unknownToolMessage(call.name, environment.tools)) };
  const parsed = parseArguments(call);
  if (typeof parsed === "string") return { result: errorResult(call, parsed) };
  // The message already names the tool and lists each failing path.
  // Arguments parsed here from the call's text are this call's own: checked in place. Arguments a
  // provider sent parsed are also in the conversation, so they are checked on a copy.
  const validated = parsed.fromText
    ? await validateParsedToolArgumentsAsync(tool, parsed.value)
    : await validateToolArgumentsAsync(tool, parsed.value);
  if (!validated.ok) return { result: errorResult(call, validated.message) };
  const { toolTimeoutMs } = environment;
  const outcome = await boundedCall(
    (signal) => tool.execute(validated.value, toolContext(call, environment, signal)),
    environment.signal,
    toolTimeoutMs,
  );
  if (outcome.status === "aborted") throw outcome.reason;
  if (outcome.status === "timed-out") {
    return { result: errorResult(call, `tool '${call.name}' timed out after ${toolTimeoutMs} ms`) };
  }
  if (outcome.status === "failed") {
    const error = asError(outcome.error);
    return { result: failedResult(call, error, environment), error };
  }
  const value = outcome.value as ToolResult | null | undefined;
  if (value?.isError === true && value.error instanceof Error) {
    return { result: failedResult(call, value.error, environment), error: value.error };
  }
  return { result: toCallResult(call, outcome.value) };
}

/** The answer to a call whose tool threw or whose route failed, worded by the run's policy. */
function failedResult(call: ToolCall, error: Error, environment: ToolCallEnvironment): ToolCallResult {
  environment.onToolError?.(error, call.name, call.id);
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
  return boundedByCaller(context);
}

function parseArguments(call: ToolCall): { value: unknown; fromText: boolean } | string {
  if (call.arguments !== undefined) return { value: call.arguments, fromText: false };
  const text = call.argumentsText;
  // Some servers send an empty string for a tool without parameters.
  if (text.trim() === "") return { value: {}, fromText: true };
  try {
    return { value: JSON.parse(text), fromText: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `arguments for tool '${call.name}' are not valid JSON (${reason}); send a JSON object`;
  }
}

function toCallResult(call: ToolCall, result: ToolResult): ToolCallResult {
  if (typeof result !== "object" || result === null || typeof result.output !== "string") {
    return errorResult(
      call,
      `tool '${call.name}' returned ${result === null ? "null" : typeof result}, expected { output: string, isError: boolean }`,
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
    ? `unknown tool '${name}': no tools are available`
    : `unknown tool '${name}'; known tools: ${known.join(", ")}`;
}

function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new Error(typeof error === "string" ? error : (JSON.stringify(error) ?? String(error)));
}
