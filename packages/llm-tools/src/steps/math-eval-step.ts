import { defineStep, type Exchange } from "@routekit/core";
import { type MathEvalOptions, resolveMathEvalOptions, runMathEvalBounded } from "../math-eval/index.js";

/**
 * The `.mathEval(options)` step: the body is `{expression}` (object or JSON text) or the
 * expression itself as plain text; the body becomes JSON text of the result (`null` for NaN and
 * infinities). The expression is untrusted: it is evaluated on a hardened mathjs in a worker of
 * the budget, terminated at `timeoutMs`. Options are checked when the route is added.
 */
export const mathEval = defineStep("mathEval", (options: MathEvalOptions = {}) => {
  resolveMathEvalOptions(options);
  return async (exchange: Exchange): Promise<void> => {
    exchange.body = await runMathEvalBounded(exchange.body, options, exchange.signal);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** math_eval as a step: JSON text of the result, `null` for NaN and infinities. */
    mathEval(options?: MathEvalOptions): RouteDsl<string>;
  }
}
