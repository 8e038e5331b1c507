import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  describeToolError,
  type Tool,
  type ToolCallContext,
  type ToolErrorPolicy,
  type ToolResult,
  validateToolArgumentsAsync,
} from "@routekit/llm";
import { checkOutput, type ToolOutput } from "./output-schema.js";

/** What one MCP `tools/call` needs besides the tool and its arguments. */
export interface CallSettings {
  readonly callId: string;
  /** Fires when the client cancels the request or the session closes. */
  readonly signal: AbortSignal;
  /** Fires when the server closes: the call ends at once with a result saying so. */
  readonly closing: AbortSignal;
  readonly timeoutMs: number;
  readonly toolErrors: ToolErrorPolicy;
  readonly output: ToolOutput | undefined;
}

/**
 * Runs one tool call as the llm step runs a model's: the arguments are checked against the tool's
 * schema (every failing path named), the tool runs with a deadline and the client's signal (a tool
 * route gets them as its exchange's signal and timeout), and every failure — invalid arguments, a
 * throwing tool, a failed route, the deadline — is an `isError` result whose text is what the llm
 * step would show a model (the `toolErrors` policy: by default no class names, hosts or paths, and
 * never a stack). Never rejects.
 */
export async function runCall(tool: Tool, args: unknown, settings: CallSettings): Promise<CallToolResult> {
  const checked = await validateToolArgumentsAsync(tool, args ?? {});
  if (!checked.ok) return errorContent(checked.message);
  const outcome = await withDeadline(
    (signal) => {
      const context: ToolCallContext = { callId: settings.callId, signal, timeoutMs: settings.timeoutMs };
      return tool.execute(checked.value, context);
    },
    settings.signal,
    settings.closing,
    settings.timeoutMs,
  );
  if (outcome.status === "timed-out") {
    return errorContent(`tool '${tool.name}' timed out after ${settings.timeoutMs} ms`);
  }
  if (outcome.status === "aborted") return errorContent(`tool '${tool.name}' was cancelled`);
  if (outcome.status === "closing") {
    return errorContent(`tool '${tool.name}' was cancelled: the MCP server is closing`);
  }
  if (outcome.status === "failed") {
    return errorContent(describeToolError(asError(outcome.error), tool.name, settings.toolErrors));
  }
  return toCallResult(tool, outcome.value, settings);
}

async function toCallResult(tool: Tool, result: ToolResult, settings: CallSettings): Promise<CallToolResult> {
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
  if (output === undefined) return { content: [{ type: "text", text: result.output }] };
  const checked = await checkOutput(output, "value" in result ? result.value : parseJson(result.output));
  if (!checked.ok) return errorContent(checked.message);
  // The text repeats the structured value, for clients that read only content (as the spec advises).
  return {
    content: [{ type: "text", text: JSON.stringify(checked.value) }],
    structuredContent: checked.value,
  };
}

/** An `isError` result: one text block with the message, no stack. */
export function errorContent(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

type Outcome =
  | { status: "done"; value: ToolResult }
  | { status: "failed"; error: unknown }
  | { status: "timed-out" }
  | { status: "aborted" }
  | { status: "closing" };

/**
 * Runs `start` with a signal that fires at the deadline or when `parent` or `closing` fires, and
 * settles then even when the tool ignores its signal. Timers and listeners are removed when it
 * settles.
 */
function withDeadline(
  start: (signal: AbortSignal) => Promise<ToolResult>,
  parent: AbortSignal,
  closing: AbortSignal,
  timeoutMs: number,
): Promise<Outcome> {
  if (parent.aborted) return Promise.resolve({ status: "aborted" });
  if (closing.aborted) return Promise.resolve({ status: "closing" });
  return new Promise((resolve) => {
    const controller = new AbortController();
    let settled = false;
    const settle = (outcome: Outcome, reason?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
      closing.removeEventListener("abort", onClosing);
      resolve(outcome);
      if (reason !== undefined) controller.abort(reason);
    };
    const onAbort = () => settle({ status: "aborted" }, parent.reason ?? new Error("cancelled"));
    const onClosing = () => settle({ status: "closing" }, closing.reason ?? new Error("closing"));
    const timer = setTimeout(
      () =>
        settle(
          { status: "timed-out" },
          new DOMException(`deadline of ${timeoutMs} ms passed`, "TimeoutError"),
        ),
      timeoutMs,
    );
    parent.addEventListener("abort", onAbort, { once: true });
    closing.addEventListener("abort", onClosing, { once: true });
    let running: Promise<ToolResult>;
    try {
      running = Promise.resolve(start(controller.signal));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => settle({ status: "done", value }),
      (error: unknown) => settle({ status: "failed", error }),
    );
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
