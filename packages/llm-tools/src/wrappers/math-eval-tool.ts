import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import { MATH_EVAL_INPUT_SCHEMA, type MathEvalOptions, resolveMathEvalOptions } from "../math-eval/index.js";
import "../steps/math-eval-step.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of MathEvalTool: the math_eval step's options plus the wrapper's. */
export interface MathEvalToolOptions extends MathEvalOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "Evaluate a math expression (arithmetic, comparisons, functions, units, matrices); returns the result as JSON.";

/** math_eval as a self-contained route: `from(endpointUri).asLlmTool("math_eval", ...).mathEval(options)`. */
export class MathEvalTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: MathEvalOptions };

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(options: MathEvalToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveMathEvalOptions(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    this.from(wrapper.endpointUri ?? "direct:llm.math_eval")
      .asLlmTool("math_eval", {
        description: wrapper.description ?? DESCRIPTION,
        input: MATH_EVAL_INPUT_SCHEMA,
        // The step checks its input for every caller, naming the tool and the key.
        validate: "model-only",
      })
      .mathEval(step);
  }
}
