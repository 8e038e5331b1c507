import { LlmToolsError } from "../errors.js";
import { describe } from "../tool-input.js";

const TOOL_NAME = "math_eval";

/** Options of the math_eval engine: the guards every evaluation runs under. */
export interface MathEvalOptions {
  /** Longest accepted expression, in characters (default 4096). */
  maxExpressionChars?: number;
  /** Most elements one matrix may have (default 10000); all matrices of one evaluation together may have ten times that. */
  maxMatrixElements?: number;
  /** Longest time one evaluation may run, in milliseconds (default 1000). */
  timeoutMs?: number;
}

/** Options after validation, with every default filled in. */
export interface ResolvedMathEvalOptions {
  readonly maxExpressionChars: number;
  readonly maxMatrixElements: number;
  readonly timeoutMs: number;
}

/** The defaults of the math_eval guards. */
export const MATH_EVAL_DEFAULTS: ResolvedMathEvalOptions = {
  maxExpressionChars: 4096,
  maxMatrixElements: 10_000,
  timeoutMs: 1000,
};

const KEYS = Object.keys(MATH_EVAL_DEFAULTS) as (keyof ResolvedMathEvalOptions)[];

/** Validates math_eval options; every error names the option, what was expected and what was found. */
export function resolveMathEvalOptions(options: MathEvalOptions = {}): ResolvedMathEvalOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(`options must be an object (found ${describe(options)})`);
  }
  const resolved = { ...MATH_EVAL_DEFAULTS };
  for (const [key, value] of Object.entries(options)) {
    if (!(KEYS as string[]).includes(key)) {
      throw optionError(`unknown option '${key}' (expected one of: ${KEYS.join(", ")})`);
    }
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      throw optionError(`option '${key}' must be a positive integer (found ${describe(value)})`);
    }
    resolved[key as keyof ResolvedMathEvalOptions] = value;
  }
  return resolved;
}

function optionError(message: string): LlmToolsError {
  return new LlmToolsError("TOOL_OPTION_INVALID", TOOL_NAME, `${TOOL_NAME}: ${message}`);
}
