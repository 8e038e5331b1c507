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
