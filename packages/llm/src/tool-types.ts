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
  /**
   * A durable run's key for this call's effect (run id, turn and call id): the same on every retry
   * of the call, so the system receiving the effect can deduplicate it (`Idempotency-Key`).
   */
  effectKey?: string;
}

/** Whether a call may run: true, false, or decided per call from its arguments. */
export type ApprovalRule =
  | boolean
  | ((args: unknown, context: ApprovalContext) => boolean | Promise<boolean>);

/** What a `needsApproval` function learns of the call. */
export interface ApprovalContext {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
}

/**
 * What a durable run does with a tool beyond calling it: ask a person first, and run an effect at
 * most once (a call whose outcome a crash left unknown goes to \`reconcile\`, never runs again).
 */
export interface ToolDurability {
  /** Park the run until a person approves the call (see the durable agents guide). */
  readonly needsApproval?: ApprovalRule;
  /** "once": the call's effect must not be repeated; "repeatable" (default): retrying is harmless. */
  readonly effect?: "once" | "repeatable";
  /**
   * For an "once" tool whose call started but whose result was never recorded (the process died):
   * finds out what happened, by the call's effect key, and answers the result — or undefined when
   * nothing happened, so the call runs. Without it the model reads that the outcome is unknown.
   */
  readonly reconcile?: (
    args: unknown,
    context: { effectKey: string; callId: string },
  ) => Promise<ToolResult | undefined>;
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
  /** What a durable run does with this tool beyond calling it (approval, effects once). */
  readonly durability?: ToolDurability;
  /** Longest result the model reads, in characters (overrides the step's `maxToolResultChars`). */
  readonly maxResultChars?: number;
}

/** Tool names accepted by OpenAI and Anthropic alike. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
