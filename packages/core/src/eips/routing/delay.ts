import { checkExpression, invalid, siteOf } from "../../dsl/option-checks.js";
import type { ExpressionOf } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import type { Exchange } from "../../model/exchange.js";
import type { DelayDefinition } from "../../model/steps/routing-steps.js";
import { describeValue } from "../../support/describe-value.js";
import { sleep } from "../../support/sleep.js";

/** Milliseconds from a number or numeric text, or undefined when the value is neither. */
function millisecondsOf(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : undefined;
}

export const delayVerb = defineVerb({
  record: (recorder, delay: unknown): DelayDefinition => {
    if (typeof delay === "number") {
      if (millisecondsOf(delay) === undefined) {
        throw invalid(siteOf(recorder, "delay"), `expects milliseconds >= 0, found ${describeValue(delay)}`);
      }
      return { type: "delay", delay };
    }
    return {
      type: "delay",
      delay: checkExpression(siteOf(recorder, "delay"), delay, "milliseconds or an expression yielding them"),
    };
  },
  step: {
    type: "delay",
    compile: (definition, scope) => {
      const delay = definition.delay;
      if (typeof delay === "number") {
        if (delay === 0) return () => undefined;
        return (exchange) => sleep(delay, exchange.signal);
      }
      const evaluate = scope.expression(delay);
      return (exchange: Exchange) => {
        const value = evaluate(exchange);
        const ms = millisecondsOf(value);
        if (ms === undefined) {
          throw new RoutekitError(
            "EXPRESSION_FAILED",
            `Route '${scope.routeId}' step ${scope.label}: the delay expression yielded ${describeValue(value)}, expected milliseconds >= 0`,
          );
        }
        return ms === 0 ? undefined : sleep(ms, exchange.signal);
      };
    },
    shape: { runsUserCode: false },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /** Waits `delay` milliseconds (a number or an expression); aborted with the exchange's signal. */
    delay(delay: number | ExpressionOf<TBody, number | string>): RouteDsl<TBody>;
  }
}
