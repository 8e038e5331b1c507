import { defineStep, type Exchange } from "@routekit/core";
import { hardenedMath } from "../math-eval/hardened-math.js";
import { type MathEvalOptions, resolveMathEvalOptions, runMathEval } from "../math-eval/index.js";

/**
 * The `.mathEval(options)` step: the body is `{expression}` (object or JSON text) or the
 * expression itself as plain text; the body becomes JSON text of the result (`null` for NaN and
 * infinities). Evaluation runs on a hardened mathjs with cached compiled expressions. Options are
 * checked when the route is added.
 */
export const mathEval = defineStep("mathEval", (options: MathEvalOptions = {}) => {
  resolveMathEvalOptions(options);
  // Load mathjs and build the hardened instance when the route is added, not on the first call.
  hardenedMath();
  return (exchange: Exchange): void => {
    exchange.body = runMathEval(exchange.body, options);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** math_eval as a step: JSON text of the result, `null` for NaN and infinities. */
    mathEval(options?: MathEvalOptions): RouteDsl<string>;
  }
}
