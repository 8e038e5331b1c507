export { mathEval, runMathEval, runMathEvalBounded } from "./math-eval.js";
export {
  MATH_EVAL_DEFAULTS,
  type MathEvalOptions,
  type ResolvedMathEvalOptions,
  resolveMathEvalOptions,
} from "./math-eval-options.js";
export { MATH_EVAL_INPUT_SCHEMA } from "./math-eval-schema.js";
