import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Tool, ToolResult } from "@routekit/llm";
import { describeToolError, type ToolErrorPolicy } from "@routekit/llm/internal";
import { boundedByCaller, validateToolArguments } from "@routekit/llm/tool";
import type { CallClock } from "./call-clock.js";
import { CallDeadline, callContextOf, rejected } from "./call-deadline.js";
import { contentOf } from "./content.js";
import { checkOutput, type ToolOutput } from "./output-schema.js";

/** What one MCP `tools/call` needs besides the tool and its arguments. */
export interface CallSettings {
  readonly callId: string;
  /** Fires when the client cancels the request or the session closes. */
  readonly signal: AbortSignal;
  /** The server's clock: it times the call, and the server ends the calls on it when it closes. */
  readonly clock: CallClock;
  readonly toolErrors: ToolErrorPolicy;
  readonly output: ToolOutput | undefined;
  /**
   * Runs on the tool's result within the call's deadline (asking the client to approve a parked
   * run); `deadline.signal` makes the call's signal only when read (most calls never need one).
   * One function for every call of a server: the call comes in as arguments, not in a closure.
   */
  readonly afterTool?: (
    result: ToolResult,
    callId: string,
    deadline: { readonly signal: AbortSignal },
  ) => ToolResult | Promise<ToolResult>;
}

/**
 * Runs one tool call as the llm step runs a model's: the arguments are checked against the tool's
 * schema (every failing path named); the tool runs with one signal that fires at the deadline, on
 * the client's cancellation or when the server closes (a tool route's exchange gets it as its
 * signal), and the call settles when it fires even if the tool ignores it — this race is the only
 * one, the tool's own wrapper is told not to add a second; and every failure — invalid arguments, a
 * throwing tool, a failed route, the deadline — is an `isError` result whose text is what the llm
 * step would show a model (the `toolErrors` policy: by default no class names, hosts or paths, and
 * never a stack). Never rejects.
 */
export function runCall(
  tool: Tool,
  args: Record<string, unknown> | undefined,
  settings: CallSettings,
): Promise<CallToolResult> {
  if (settings.signal.aborted) return Promise.resolve(errorContent(`tool '${tool.name}' was cancelled`));
  // Synchronous: the value is remembered as validated, so the tool's execute does not check it
  // again (a Standard Schema that validates asynchronously is checked there instead).
  const checked = validateToolArguments(tool, args ?? {});
  if (!checked.ok) return Promise.resolve(errorContent(checked.message));
  const deadline = new CallDeadline(settings.signal, settings.clock);
  let running: Promise<ToolResult | undefined>;
  if (deadline.ending !== undefined) {
    // The route context had already aborted in-flight work: the call ended as it began, no tool runs.
    running = Promise.resolve(undefined);
  } else {
    try {
      // The deadline is in the signal and the race: no timeoutMs, the tool adds no race of its
      // own, and a tool route runs its exchange under it.
      const context = boundedByCaller(callContextOf(settings.callId, deadline), deadline);
      const executed = tool.execute(checked.value, context);
      const { afterTool } = settings;
      running = deadline.race(
        afterTool === undefined
          ? executed
          : executed.then((result) => afterTool(result, settings.callId, deadline)),
      );
    } catch (error) {
      // A tool whose execute throws instead of returning a promise.
      running = Promise.resolve(rejected(error));
    }
  }
  return running.then((result) => finishCall(tool, result, deadline, settings));
}

/** The answer to a call whose tool settled or whose deadline fired. */
function finishCall(
  tool: Tool,
  result: ToolResult | undefined,
  deadline: CallDeadline,
  settings: CallSettings,
): CallToolResult | Promise<CallToolResult> {
  deadline.release();
  const { ending } = deadline;
  if (ending !== undefined && (typeof result !== "object" || result === null || result.isError)) {
    if (ending === "timed-out") {
      return errorContent(`tool '${tool.name}' timed out after ${settings.clock.timeoutMs} ms`);
    }
    if (ending === "closing") {
      return errorContent(`tool '${tool.name}' was cancelled: the MCP server is closing`);
    }
    if (ending === "stopping") {
      return errorContent(`tool '${tool.name}' was cancelled: the route context is stopping`);
    }
    return errorContent(`tool '${tool.name}' was cancelled`);
  }
  return toCallResult(tool, result, settings);
}

// Synchronous unless an output schema is to be checked: most calls take no extra promise turn.
function toCallResult(
  tool: Tool,
  result: ToolResult | undefined,
  settings: CallSettings,
): CallToolResult | Promise<CallToolResult> {
  if (typeof result !== "object" || result === null || typeof result.output !== "string") {
    return errorContent(`tool '${tool.name}' returned no result`);
  }
  if (result.isError) {
    const text =
      result.error instanceof Error
        ? describeToolError(result.error, tool.name, settings.toolErrors)
        : result.output;
    return errorContent(text);
  }
  const { output } = settings;
  const content = "value" in result ? contentOf(result.value) : undefined;
  if (content !== undefined) return { content };
  if (output === undefined) return { content: [{ type: "text", text: result.output }] };
  return checkOutput(output, "value" in result ? result.value : parseJson(result.output)).then(structured);
}

/** A checked structured value as a result; the text repeats it, for clients that read only content. */
function structured(checked: Awaited<ReturnType<typeof checkOutput>>): CallToolResult {
  if (!checked.ok) return errorContent(checked.message);
  return {
    content: [{ type: "text", text: JSON.stringify(checked.value) }],
    structuredContent: checked.value,
  };
}

/** An `isError` result: one text block with the message, no stack. */
export function errorContent(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
