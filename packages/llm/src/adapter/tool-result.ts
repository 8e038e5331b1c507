import type { ToolResult } from "../tool-types.js";

/** True when `value` already is a `ToolResult` (`output` text and an `isError` flag). */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.output === "string" &&
    typeof candidate.isError === "boolean" &&
    (candidate.metadata === undefined ||
      (typeof candidate.metadata === "object" && candidate.metadata !== null))
  );
}

/**
 * What a handler returned, as a `ToolResult`: a ToolResult passes through, text is the output,
 * `undefined` is empty output and anything else is JSON text.
 */
export function toToolResult(toolName: string, value: unknown): ToolResult {
  if (isToolResult(value)) return value;
  if (typeof value === "string") return withValue({ output: value, isError: false }, value);
  if (value === undefined) return { output: "", isError: false };
  try {
    return withValue({ output: JSON.stringify(value) ?? "", isError: false }, value);
  } catch (error) {
    return {
      output: `tool '${toolName}' returned a value that cannot be written as JSON: ${errorText(error)}`,
      isError: true,
    };
  }
}

/** A thrown value as the model should read it: `<ErrorName>: <message>`. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/** A failed call as a `ToolResult`. */
export function errorResult(output: string): ToolResult {
  return { output, isError: true };
}

/**
 * Attaches the value behind a result's output as `value`, not enumerable: it stays out of JSON,
 * events and equality checks of the result, and `context.tools.call` reads it.
 */
export function withValue<TValue>(result: ToolResult<TValue>, value: TValue): ToolResult<TValue> {
  Object.defineProperty(result, "value", { value, enumerable: false, writable: true, configurable: true });
  return result;
}
