import { MATH_EVAL_INPUT_SCHEMA, type MathEvalOptions, resolveMathEvalOptions } from "../math-eval/index.js";
import "../steps/math-eval-step.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of MathEvalTool: the math_eval step's options plus the wrapper's. */
export interface MathEvalToolOptions extends MathEvalOptions, ToolWrapperOptions {}

const SPEC: ToolWrapperSpec<MathEvalOptions> = {
  toolName: "math_eval",
  description:
    "Evaluate a math expression (arithmetic, comparisons, functions, units, matrices); returns the result as JSON.",
  check: (options) => resolveMathEvalOptions(options),
  input: () => MATH_EVAL_INPUT_SCHEMA,
  addStep: (route, options) => route.mathEval(options),
};

/** math_eval as a self-contained route: `from(endpointUri).asLlmTool("math_eval", ...).mathEval(options)`. */
export class MathEvalTool extends toolWrapper(SPEC) {}
