import type { Budget } from "@routekit/core";
import { checkOptions, type OptionChecks } from "@routekit/core/internal";
import { BUDGET_OPTION, limitOption, toolOptionsSite } from "../tool-options.js";

const TOOL_NAME = "math_eval";

/** Options of the math_eval engine: the guards every evaluation runs under. */
export interface MathEvalOptions {
  /** Longest accepted expression, in characters (default 4096). */
  maxExpressionChars?: number;
  /** Most elements one matrix may have (default 10000); all matrices of one evaluation together may have ten times that. */
  maxMatrixElements?: number;
  /**
   * Longest time one evaluation may take, in milliseconds (default 1000). The `.mathEval()` step
   * runs every evaluation in a worker of the budget, counted from submission and terminated at it.
   */
  timeoutMs?: number;
  /** The budget the `.mathEval()` step evaluates under (default: the shared budget, `sharedBudget()`). */
  budget?: Budget;
}

/** Options after validation, with every default filled in. */
export interface ResolvedMathEvalOptions {
  readonly maxExpressionChars: number;
  readonly maxMatrixElements: number;
  readonly timeoutMs: number;
  readonly budget?: Budget | undefined;
}

/** The defaults of the math_eval guards. */
export const MATH_EVAL_DEFAULTS: ResolvedMathEvalOptions = {
  maxExpressionChars: 4096,
  maxMatrixElements: 10_000,
  timeoutMs: 1000,
};

const CHECKS = {
  maxExpressionChars: limitOption(MATH_EVAL_DEFAULTS.maxExpressionChars),
  maxMatrixElements: limitOption(MATH_EVAL_DEFAULTS.maxMatrixElements),
  timeoutMs: limitOption(MATH_EVAL_DEFAULTS.timeoutMs),
  budget: BUDGET_OPTION,
} as const satisfies OptionChecks;

/** Validates math_eval options; every error names the option, what was expected and what was found. */
export function resolveMathEvalOptions(options: MathEvalOptions = {}): ResolvedMathEvalOptions {
  const checked = checkOptions(CHECKS, options, toolOptionsSite(TOOL_NAME));
  return { ...checked, budget: checked.budget as Budget | undefined };
}
