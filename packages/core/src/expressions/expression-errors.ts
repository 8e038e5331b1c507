import { ExpressionError, RoutekitError } from "../errors/errors.js";

/** A syntax error in `expression` at the 0-based `position`; the message shows the 1-based column. */
export function syntaxError(
  expression: string,
  detail: string,
  position: number,
  found?: string,
): ExpressionError {
  const column = position + 1;
  const foundText = found === undefined ? "" : `, found ${found}`;
  return new ExpressionError(
    expression,
    `Expression "${expression}": ${detail} at column ${column}${foundText}`,
    column,
  );
}

/** A failure while evaluating `expression`; the original error is the cause. */
export function evaluationError(expression: string, error: unknown): RoutekitError {
  const detail = error instanceof Error ? error.message : String(error);
  return new RoutekitError("EXPRESSION_FAILED", `Expression "${expression}" failed: ${detail}`, {
    cause: error,
  });
}

/** A failure inside one operator or function; the caller adds the expression text. */
export function operationError(detail: string, position: number): RoutekitError {
  return new RoutekitError("EXPRESSION_FAILED", `${detail} (at column ${position + 1})`);
}

/** A short, bounded description of a value for error messages: `string "abc"`, `number 5`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return "a date";
  return typeof value === "function" ? "a function" : "an object";
}
