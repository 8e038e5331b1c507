import { defineBudgetTask } from "@routekit/core";
import { runToolJob } from "../tool-budget.js";
import { readExpression } from "./math-eval.js";
import { type MathEvalOptions, resolveMathEvalOptions } from "./math-eval-options.js";
import type { MathEvalJob } from "./math-eval-task.js";

const TOOL_NAME = "math_eval";
const MATH_EVAL_TASK = defineBudgetTask<MathEvalJob, string>(
  new URL("./math-eval-task.js", import.meta.url),
  "mathEvalJob",
);

/**
 * Runs math_eval on a tool body under the tool's budget: the evaluation runs in a worker thread
 * that is terminated at `timeoutMs` (counted from submission), whatever mathjs is doing, within
 * the budget's memory limit. Resolves with the same JSON text as `runMathEval`.
 */
export function runMathEvalBounded(
  body: unknown,
  options?: MathEvalOptions,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const resolved = resolveMathEvalOptions(options);
    const expression = readExpression(body);
    return runToolJob({
      toolName: TOOL_NAME,
      task: MATH_EVAL_TASK,
      input: {
        expression,
        maxExpressionChars: resolved.maxExpressionChars,
        maxMatrixElements: resolved.maxMatrixElements,
        timeoutMs: resolved.timeoutMs,
      },
      budget: resolved.budget,
      timeoutMs: resolved.timeoutMs,
      timeoutOption: "timeoutMs",
      activity: "evaluation",
      maxOutputBytes: resolved.budget?.options.maxOutputBytes ?? 1024 * 1024,
      signal,
    });
  } catch (error) {
    return Promise.reject(error);
  }
}
