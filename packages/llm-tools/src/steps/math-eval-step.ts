import { defineStep, type Exchange } from "@routekit/core";
import { type MathEvalOptions, resolveMathEvalOptions, runMathEvalBounded } from "../math-eval/index.js";
import { type StepOutputOption, splitStepOutput, stepBody } from "./step-output.js";

/** Options of the `.mathEval()` step: math_eval's, plus `output` (`"json"` text or the `"value"`). */
export type MathEvalStepOptions = MathEvalOptions & StepOutputOption;

/**
 * The `.mathEval(options)` step: the body is `{expression}` (object or JSON text) or the
 * expression itself as plain text; the body becomes JSON text of the result (`null` for NaN and
 * infinities), or with `output: "value"` the result itself (a number, boolean, string, array...). The expression is untrusted: it is evaluated on a hardened mathjs in a worker of
 * the budget, terminated at `timeoutMs`. Options are checked when the route is added.
 */
export const mathEval = defineStep("mathEval", (options: MathEvalStepOptions = {}) => {
  const { output, toolOptions } = splitStepOutput(options, "math_eval");
  resolveMathEvalOptions(toolOptions);
  return async (exchange: Exchange): Promise<void> => {
    exchange.body = stepBody(await runMathEvalBounded(exchange.body, toolOptions, exchange.signal), output);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** math_eval as a step: JSON text of the result, `null` for NaN and infinities. */
    mathEval(options?: MathEvalOptions & { output?: "json" }): RouteDsl<string>;
    /**
     * math_eval as a step whose body becomes the result itself (`null` for NaN and infinities;
     * matrices as arrays); name its type with `mathEval<TValue>(...)`, e.g. `mathEval<number>`.
     */
    mathEval<TValue = unknown>(options: MathEvalOptions & { output: "value" }): RouteDsl<TValue>;
  }
}
