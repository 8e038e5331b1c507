/**
 * The neutral tool model every tool shape is adapted to (see `toTool`).
 * Kept free of engine code so tool authors depend on contracts only.
 */

/** A JSON Schema object describing a tool's arguments; its root is `type: "object"`. */
export type JsonSchema = { readonly [key: string]: unknown };

/** Where a tool came from: a route with the tool aspect, an HTTP endpoint, or an adapted object. */
export type ToolSource = "route" | "http" | "native";

/** What a tool call gives back. Errors are results the model reads, not exceptions. */
export interface ToolResult<TValue = unknown> {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
  /**
   * The error behind an error result, when there is one. The LLM step then decides what the model
   * reads of it (its `toolErrors` policy) and reports the whole error in events and the log.
   */
  error?: Error;
  /**
   * The value behind `output` when the tool produced one (what a handler returned, a tool route's
   * reply body); `context.tools.call` resolves with it. Results made by routekit carry it as a
   * non-enumerable property, so it stays out of JSON, events and equality checks.
   */
  value?: TValue;
}

/** Per-call information handed to `Tool.execute`. */
export interface ToolCallContext {
  /** Fires when the call must stop (deadline, caller aborted, context stopping). */
  signal?: AbortSignal;
  /** A deadline for this call in milliseconds; overrides the tool's own default. */
  timeoutMs?: number;
  /** The model's id for this call, when the call comes from a model. */
  callId?: string;
  /** Caller headers the LLM step allowed through to tools. */
  headers?: Record<string, unknown>;
}

/**
 * The one interface the LLM step and every adapter speak. `TInput` is what `execute` accepts
 * (inferred from the tool's schema by `createTool`, `toTool` and `context.tools.register`),
 * `TOutput` what a successful call produces.
 */
export interface Tool<TInput = Record<string, unknown>, TOutput = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly source: ToolSource;
  /** What this tool was adapted from (the route id, the original object, the options). */
  readonly original?: unknown;
  execute(args: TInput, context?: ToolCallContext): Promise<ToolResult<TOutput>>;
}

/** Tool names accepted by OpenAI and Anthropic alike. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
