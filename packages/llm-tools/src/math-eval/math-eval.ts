import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { describe, parseToolInput, requireString, startsAsJsonObject } from "../tool-input.js";
import { compileExpression } from "./compile-expression.js";
import { EvaluationMeter, withMeter } from "./evaluation-meter.js";
import { type MathEvalOptions, resolveMathEvalOptions } from "./math-eval-options.js";
import { renderResult } from "./render-result.js";

const TOOL_NAME = "math_eval";

/**
 * Evaluates an expression on a hardened mathjs instance and returns the result as JSON text
 * (see renderResult; NaN and infinities are `null`). Each call gets a fresh scope. Throws a
 * ToolInputError for a bad expression, TOOL_GUARD_REFUSED for disabled or unavailable functions
 * and method calls, TOOL_LIMIT_EXCEEDED past a size limit, TOOL_TIMEOUT past `timeoutMs`.
 */
export function mathEval(expression: string, options?: MathEvalOptions): string {
  const resolved = resolveMathEvalOptions(options);
  if (typeof expression !== "string") {
    throw new ToolInputError(
      TOOL_NAME,
      `${TOOL_NAME}: key 'expression' must be a string (found ${describe(expression)})`,
      "expression",
    );
  }
  if (expression.trim() === "") {
    throw new ToolInputError(TOOL_NAME, `${TOOL_NAME}: key 'expression' is empty`, "expression");
  }
  if (expression.length > resolved.maxExpressionChars) {
    throw new LlmToolsError(
      "TOOL_LIMIT_EXCEEDED",
      TOOL_NAME,
      `${TOOL_NAME}: key 'expression' has ${expression.length} characters, more than maxExpressionChars (${resolved.maxExpressionChars})`,
    );
  }
  const compiled = compileExpression(expression);
  const meter = new EvaluationMeter(resolved);
  return withMeter(meter, () => {
    try {
      return renderResult(compiled.evaluate(new Map()));
    } catch (error) {
      if (meter.failure !== undefined) throw meter.failure;
      if (error instanceof LlmToolsError) throw error;
      const reason = reasonOf(error);
      throw new ToolInputError(
        TOOL_NAME,
        `${TOOL_NAME}: evaluating the expression failed: ${reason}`,
        "expression",
      );
    }
  });
}

/**
 * Runs math_eval on a tool body on the calling thread: an input object `{ expression }`, its JSON
 * text or bytes, or (the enrichment form) any other text, which is the expression itself. Its
 * `timeoutMs` is checked between steps, which some single mathjs operations outrun: an expression
 * from a model or a message goes through `runMathEvalBounded`, as the `.mathEval()` step does.
 */
export function runMathEval(body: unknown, options?: MathEvalOptions): string {
  return mathEval(readExpression(body), options);
}

/**
 * The expression of a tool body: `{ expression }`, its JSON text or bytes, or the text itself.
 * Text starting with `{` is always read as the JSON input object, so a malformed one is reported
 * as invalid JSON and never evaluated.
 */
export function readExpression(body: unknown): string {
  const text = body instanceof Uint8Array ? new TextDecoder().decode(body) : body;
  if (typeof text === "string" && !startsAsJsonObject(text)) return text;
  return requireString(parseToolInput(text, TOOL_NAME), "expression", TOOL_NAME);
}
