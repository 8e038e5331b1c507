import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/llm raises. */
export type LlmErrorCode =
  | "TOOL_INVALID"
  | "TOOL_DUPLICATE"
  | "TOOL_NOT_FOUND"
  | "TOOL_ARGUMENTS_INVALID"
  | "TOOL_EXECUTION_FAILED"
  | "TOOL_TIMEOUT"
  | "MODEL_REQUEST_FAILED"
  | "MODEL_RESPONSE_INVALID"
  | "MODEL_NOT_CONFIGURED"
  | "API_KEY_MISSING"
  | "LOOP_LIMIT"
  | "OPTION_INVALID"
  | "OUTPUT_INVALID"
  | "RUN_CONFLICT"
  | "RUN_NOT_FOUND"
  | "RUN_STATE_INVALID"
  | "QUOTA_EXCEEDED";

/** Every code of `LlmErrorCode`, for checks at run time. */
export const LLM_ERROR_CODES: readonly LlmErrorCode[] = [
  "QUOTA_EXCEEDED",
  "TOOL_INVALID",
  "TOOL_DUPLICATE",
  "TOOL_NOT_FOUND",
  "TOOL_ARGUMENTS_INVALID",
  "TOOL_EXECUTION_FAILED",
  "TOOL_TIMEOUT",
  "MODEL_REQUEST_FAILED",
  "MODEL_RESPONSE_INVALID",
  "MODEL_NOT_CONFIGURED",
  "API_KEY_MISSING",
  "LOOP_LIMIT",
  "OPTION_INVALID",
  "OUTPUT_INVALID",
  "RUN_CONFLICT",
  "RUN_NOT_FOUND",
  "RUN_STATE_INVALID",
];

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<LlmErrorCode>([
  "TOOL_INVALID",
  "TOOL_DUPLICATE",
  "TOOL_NOT_FOUND",
  "TOOL_ARGUMENTS_INVALID",
  "MODEL_NOT_CONFIGURED",
  "API_KEY_MISSING",
  "OPTION_INVALID",
]);

/** The one error base class of @routekit/llm; `code` says what kind of failure it is. */
export class LlmError extends RoutekitError<LlmErrorCode> {
  override readonly name: string = "LlmError";

  constructor(code: LlmErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}

/** Options of `ToolExecutionError`: the tool that failed, and the code when it is not a plain failure. */
export interface ToolExecutionErrorOptions {
  toolName: string;
  code?: "TOOL_EXECUTION_FAILED" | "TOOL_TIMEOUT" | "TOOL_ARGUMENTS_INVALID";
  cause?: unknown;
  /** For `TOOL_ARGUMENTS_INVALID`: every failing path and what is wrong there. */
  issues?: readonly SchemaIssue[];
}

/** One reason a value fails its schema: where (a JSON Pointer, "" for the value itself) and what. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/** A tool call failed; `toolName` names the tool, `issues` lists what invalid arguments got wrong. */
export class ToolExecutionError extends LlmError {
  override readonly name: string = "ToolExecutionError";
  readonly toolName: string;
  readonly issues: readonly SchemaIssue[];

  constructor(message: string, options: ToolExecutionErrorOptions) {
    super(options.code ?? "TOOL_EXECUTION_FAILED", message, { cause: options.cause });
    this.toolName = options.toolName;
    this.issues = options.issues ?? [];
  }
}

/** Options of `ModelRequestError`: the provider, and the HTTP status when the server answered. */
export interface ModelRequestErrorOptions {
  provider: string;
  status?: number | undefined;
  /** How long the server asked to wait (`retry-after-ms` / `retry-after`), when it did. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/**
 * A request to a model provider failed (transport error or non-2xx answer). `retryable` is false
 * for an answer that the same request gets again (4xx but 408, 409 and 429).
 */
export class ModelRequestError extends LlmError {
  override readonly name: string = "ModelRequestError";
  readonly provider: string;
  readonly status: number | undefined;
  /** How long the server asked to wait (`retry-after-ms` / `retry-after`), when it did. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ModelRequestErrorOptions) {
    const status = options.status;
    const permanent =
      status !== undefined &&
      status >= 400 &&
      status < 500 &&
      status !== 408 &&
      status !== 409 &&
      status !== 429;
    super("MODEL_REQUEST_FAILED", message, { cause: options.cause, retryable: !permanent });
    this.provider = options.provider;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Options of `OutputValidationError`. */
export interface OutputValidationErrorOptions {
  /** The structured output's name. */
  outputName: string;
  /** What was wrong with the last answer: every failing path. */
  issues: readonly SchemaIssue[];
  /** How many answers the model gave. */
  attempts: number;
}

/** The model's final answer did not match the step's output schema, after every retry (`OUTPUT_INVALID`). */
export class OutputValidationError extends LlmError {
  override readonly name: string = "OutputValidationError";
  readonly outputName: string;
  readonly issues: readonly SchemaIssue[];
  readonly attempts: number;

  constructor(message: string, options: OutputValidationErrorOptions) {
    super("OUTPUT_INVALID", message);
    this.outputName = options.outputName;
    this.issues = options.issues;
    this.attempts = options.attempts;
  }
}
