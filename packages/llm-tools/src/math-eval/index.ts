export { mathEval, runMathEval } from "./math-eval.js";
export { runMathEvalBounded } from "./math-eval-bounded.js";
export {
  MATH_EVAL_DEFAULTS,
  type MathEvalOptions,
  type ResolvedMathEvalOptions,
  resolveMathEvalOptions,
} from "./math-eval-options.js";
export { MATH_EVAL_INPUT_SCHEMA } from "./math-eval-schema.js";
