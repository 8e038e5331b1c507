import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  boundedByCaller,
  describeToolError,
  type Tool,
  type ToolErrorPolicy,
  type ToolResult,
  validateToolArguments,
} from "@routekit/llm";
import { checkOutput, type ToolOutput } from "./output-schema.js";

/** What one MCP `tools/call` needs besides the tool and its arguments. */
export interface CallSettings {
  readonly callId: string;
  /** Fires when the client cancels the request or the session closes. */
  readonly signal: AbortSignal;
  /** The calls in flight of the server: it ends each with `closeCall` when it closes. */
  readonly running: Set<CallDeadline>;
  readonly timeoutMs: number;
  readonly toolErrors: ToolErrorPolicy;
  readonly output: ToolOutput | undefined;
}

/** Why a call's signal fired. */
type Ending = "timed-out" | "cancelled" | "closing";

/**
 * The one signal a call's tool sees: it fires at the deadline, when the client's signal fires, or
 * when the server closes. The object is its own listener and timer argument (no closure per call),
 * and `release` removes the timer, the listener and its entry in the server's set.
 */
export class CallDeadline {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal;
  readonly #running: Set<CallDeadline>;
  readonly #timer: NodeJS.Timeout;
  #settle: ((result: ToolResult | undefined) => void) | undefined = undefined;
  ending: Ending | undefined = undefined;

  constructor(parent: AbortSignal, timeoutMs: number, running: Set<CallDeadline>) {
    this.#parent = parent;
    this.#running = running;
    running.add(this);
    parent.addEventListener("abort", this, { once: true });
    this.#timer = setTimeout(timeOut, timeoutMs, this, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * What `call` resolves to, or undefined as soon as the call ends (deadline, cancellation, server
   * closing) even if `call` never settles; a rejection becomes an error result.
   */
  race(call: Promise<ToolResult>): Promise<ToolResult | undefined> {
    return new Promise((resolve) => {
      this.#settle = resolve;
      call.then(resolve, (error: unknown) => resolve(rejected(error)));
    });
  }

  end(ending: Ending, reason: unknown): void {
    if (this.ending !== undefined) return;
    this.ending = ending;
    this.release();
    this.#controller.abort(reason);
    this.#settle?.(undefined);
  }

  release(): void {
    clearTimeout(this.#timer);
    this.#parent.removeEventListener("abort", this);
    this.#running.delete(this);
  }

  /** The client's signal fired. */
  handleEvent(): void {
    this.end("cancelled", this.#parent.reason ?? new Error("cancelled"));
  }
}

function timeOut(deadline: CallDeadline, timeoutMs: number): void {
  deadline.end("timed-out", new DOMException(`the deadline of ${timeoutMs} ms passed`, "TimeoutError"));
}

/** Ends a call because the server closes: its tool's signal fires, and it answers saying so. */
export function closeCall(deadline: CallDeadline): void {
  deadline.end("closing", new Error("the MCP server is closing"));
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
export async function runCall(
  tool: Tool,
  args: Record<string, unknown> | undefined,
  settings: CallSettings,
): Promise<CallToolResult> {
  if (settings.signal.aborted) return errorContent(`tool '${tool.name}' was cancelled`);
  // Synchronous: the value is remembered as validated, so the tool's execute does not check it
  // again (a Standard Schema that validates asynchronously is checked there instead).
  const checked = validateToolArguments(tool, args ?? {});
  if (!checked.ok) return errorContent(checked.message);
  const deadline = new CallDeadline(settings.signal, settings.timeoutMs, settings.running);
  let result: ToolResult | undefined;
  try {
    // The deadline is in the signal and the race: no timeoutMs, and the tool adds no race of its own.
    const context = boundedByCaller({ callId: settings.callId, signal: deadline.signal });
    result = await deadline.race(tool.execute(checked.value, context));
  } catch (error) {
    // A tool whose execute throws instead of returning a promise.
    result = rejected(error);
  } finally {
    deadline.release();
  }
  const { ending } = deadline;
  if (ending !== undefined && (typeof result !== "object" || result === null || result.isError)) {
    if (ending === "timed-out") {
      return errorContent(`tool '${tool.name}' timed out after ${settings.timeoutMs} ms`);
    }
    if (ending === "closing") {
      return errorContent(`tool '${tool.name}' was cancelled: the MCP server is closing`);
    }
    return errorContent(`tool '${tool.name}' was cancelled`);
  }
  return toCallResult(tool, result, settings);
}

/** A rejected or throwing tool as an error result (a registry's tools never reject; others may). */
function rejected(error: unknown): ToolResult {
  const failure = error instanceof Error ? error : new Error(String(error));
  return { isError: true, output: failure.message, error: failure };
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
