import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/llm-tools raises. */
export type LlmToolsErrorCode =
  | "TOOL_INPUT_INVALID"
  | "TOOL_OPTION_INVALID"
  | "TOOL_GUARD_REFUSED"
  | "TOOL_LIMIT_EXCEEDED"
  | "TOOL_TIMEOUT"
  | "TOOL_FAILED";

/** Codes whose failure the same input would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<LlmToolsErrorCode>([
  "TOOL_INPUT_INVALID",
  "TOOL_OPTION_INVALID",
  "TOOL_GUARD_REFUSED",
  "TOOL_LIMIT_EXCEEDED",
]);

/** The one error base class of this package. */
export class LlmToolsError extends RoutekitError<LlmToolsErrorCode> {
  override readonly name: string = "LlmToolsError";
  readonly toolName: string;

  constructor(code: LlmToolsErrorCode, toolName: string, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
    this.toolName = toolName;
  }

  /**
   * True when the message is about the caller's own input or a limit it hit, so an llm step shows
   * it to the model as it is; guard refusals and failures may name internal hosts and are shown
   * with those removed (see the llm step's `toolErrors`).
   */
  get expose(): boolean {
    return (
      this.code === "TOOL_INPUT_INVALID" ||
      this.code === "TOOL_LIMIT_EXCEEDED" ||
      this.code === "TOOL_TIMEOUT"
    );
  }
}

/** Bad tool input: names the tool and, when there is one, the key. */
export class ToolInputError extends LlmToolsError {
  override readonly name = "ToolInputError";
  readonly key: string | undefined;

  constructor(toolName: string, message: string, key?: string) {
    super("TOOL_INPUT_INVALID", toolName, message);
    this.key = key;
  }
}

/** What a caught value says: an error's message, or the value as text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
