import type { Budget } from "@routekit/core";
import { budgetOption } from "../budget-option.js";
import { LlmToolsError } from "../errors.js";
import { describe } from "../tool-input.js";

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

type LimitKey = "maxExpressionChars" | "maxMatrixElements" | "timeoutMs";
const KEYS: readonly string[] = ["maxExpressionChars", "maxMatrixElements", "timeoutMs", "budget"];

/** Validates math_eval options; every error names the option, what was expected and what was found. */
export function resolveMathEvalOptions(options: MathEvalOptions = {}): ResolvedMathEvalOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(`options must be an object (found ${describe(options)})`);
  }
  const resolved: { -readonly [Key in keyof ResolvedMathEvalOptions]: ResolvedMathEvalOptions[Key] } = {
    ...MATH_EVAL_DEFAULTS,
  };
  for (const [key, value] of Object.entries(options)) {
    if (!KEYS.includes(key)) {
      throw optionError(`unknown option '${key}' (expected one of: ${KEYS.join(", ")})`);
    }
    if (key === "budget") {
      resolved.budget = budgetOption(value, TOOL_NAME);
      continue;
    }
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      throw optionError(`option '${key}' must be a positive integer (found ${describe(value)})`);
    }
    resolved[key as LimitKey] = value;
  }
  return resolved;
}

function optionError(message: string): LlmToolsError {
  return new LlmToolsError("TOOL_OPTION_INVALID", TOOL_NAME, `${TOOL_NAME}: ${message}`);
}
