import { boundedCall, callerDeadlineOf, isBoundedByCaller } from "../bounded-call.js";
import { LlmError } from "../errors.js";
import type { ToolCallContext, ToolResult } from "../tool-types.js";
import { errorResult, errorText, toToolResult } from "./tool-result.js";

/** A tool's handler: called with the arguments and the context it should see; may return or throw anything. */
export type ToolHandler<TArgs> = (args: TArgs, context: ToolCallContext) => unknown;

// Handlers that already answer with a promise of a ToolResult and never reject (a tool route's).
const settledHandlers = new WeakSet<ToolHandler<never>>();

/**
 * Marks `handler` as one that always resolves with a `ToolResult` and never throws nor rejects:
 * a call bounded by its caller then returns the handler's own promise, with no wrapper of ours.
 */
export function settledHandler<TArgs>(
  handler: (args: TArgs, context: ToolCallContext) => Promise<ToolResult>,
): (args: TArgs, context: ToolCallContext) => Promise<ToolResult> {
  settledHandlers.add(handler as ToolHandler<never>);
  return handler;
}

/**
 * Runs a handler and turns whatever happens into a `ToolResult`; never rejects. A thrown error
 * (sync or async) becomes an error result. With `context.timeoutMs` or `context.signal`, the call
 * resolves with an error result as soon as the deadline passes or the signal fires, and the handler
 * sees a signal that fires then too.
 */
export function runToolHandler<TArgs>(
  toolName: string,
  handler: ToolHandler<TArgs>,
  args: TArgs,
  context: ToolCallContext = {},
): Promise<ToolResult> {
  // The caller bounds the call: a route's handler needs no wrapper at all. A caller that hands over
  // its deadline checked it before the call (reading its signal here would make one).
  if (isBoundedByCaller(context) && settledHandlers.has(handler as ToolHandler<never>)) {
    const signal = callerDeadlineOf(context) === undefined ? context.signal : undefined;
    if (signal?.aborted) return Promise.resolve(abortedResult(toolName, signal.reason));
    return handler(args, context) as Promise<ToolResult>;
  }
  const { signal, timeoutMs } = context;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs < 2 ** 31)) {
    return Promise.resolve(
      errorResult(
        `tool '${toolName}': timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`,
      ),
    );
  }
  if (signal?.aborted) return Promise.resolve(abortedResult(toolName, signal.reason));
  // The llm loop already bounds the call by the same signal and deadline: not a second time.
  if (isBoundedByCaller(context)) return settle(toolName, handler, args, context);
  const timeoutMessage = `tool '${toolName}' timed out after ${timeoutMs} ms`;
  return boundedCall(
    (bounded) =>
      settle(toolName, handler, args, bounded === signal ? context : { ...context, signal: bounded }),
    signal,
    timeoutMs,
    () => new LlmError("TOOL_TIMEOUT", timeoutMessage),
  ).then((outcome) => {
    switch (outcome.status) {
      case "done":
        return outcome.value;
      case "timed-out":
        return errorResult(timeoutMessage);
      case "aborted":
        return abortedResult(toolName, outcome.reason);
      case "failed":
        return errorResult(errorText(outcome.error));
    }
  });
}

async function settle<TArgs>(
  toolName: string,
  handler: ToolHandler<TArgs>,
  args: TArgs,
  context: ToolCallContext,
): Promise<ToolResult> {
  try {
    return toToolResult(toolName, await handler(args, context));
  } catch (error) {
    // The error rides along: the LLM step's toolErrors policy words what the model reads of it.
    const result = errorResult(errorText(error));
    if (error instanceof Error) result.error = error;
    return result;
  }
}

function abortedResult(toolName: string, reason: unknown): ToolResult {
  return errorResult(`tool '${toolName}' was aborted: ${errorText(reason)}`);
}
