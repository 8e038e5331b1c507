import {
  checkBoolean,
  checkExpression,
  checkFunction,
  checkOptionKeys,
  checkParallel,
  recordBlock,
  siteOf,
} from "../../dsl/option-checks.js";
import type { Step } from "../../dsl/route-dsl.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import { partOf } from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import type { SplitDefinition } from "../../model/step-definition.js";
import { describeValue } from "../../support/describe-value.js";
import type { AggregationStrategy } from "../aggregation/aggregation-strategies.js";
import { runFanOut } from "../fan-out/fan-out.js";
import type { FanOutPlan } from "../fan-out/fan-out-run.js";
import { partSourceOf } from "../fan-out/part-source.js";
import { SPLIT_COMPLETE, SPLIT_INDEX, SPLIT_SIZE } from "./routing-properties.js";

/** What a split expression may yield: an iterable or async iterable of parts; null/undefined = none. */
export type SplitParts<TPart> = Iterable<TPart> | AsyncIterable<TPart> | null | undefined;

/** The split expression: simple-language text, or a function yielding the parts (may be async). */
export type SplitExpression<TBody, TPart> =
  | string
  | ((exchange: Exchange<TBody>) => SplitParts<TPart> | Promise<SplitParts<TPart>>);

/** Options of `split`. */
export interface SplitOptions<TPart = unknown, TResult = unknown> {
  /** Builds the result from the finished parts, in part order; its body and headers replace the original's. */
  aggregate?: AggregationStrategy<TResult, TPart>;
  /** Run parts concurrently: true = at most 10 in flight, a number = at most that many. Default false. */
  parallel?: boolean | number;
  /** Stop at the first failing part instead of running the rest. Default false. */
  stopOnError?: boolean;
}

const OPTIONS = ["aggregate", "parallel", "stopOnError"] as const;

/** Adds split.index, split.complete and split.size (when known) to a part's properties. */
function addSplitProperties(
  properties: Record<string, unknown>,
  index: number,
  last: boolean,
  size: number | undefined,
): void {
  properties[SPLIT_INDEX] = index;
  properties[SPLIT_COMPLETE] = last;
  const known = size ?? (last ? index + 1 : undefined);
  if (known !== undefined) properties[SPLIT_SIZE] = known;
}

export const splitVerb = defineVerb({
  record: (recorder, expression: unknown, step: unknown, options?: unknown): SplitDefinition => {
    const parts = checkExpression(siteOf(recorder, "split"), expression, "an expression yielding the parts");
    const steps = recordBlock(siteOf(recorder, "split"), recorder, step, "the step each part runs");
    const settings = checkOptionKeys(siteOf(recorder, "split"), options, OPTIONS);
    return {
      type: "split",
      expression: parts,
      steps,
      parallel: checkParallel(siteOf(recorder, "split"), settings.parallel),
      stopOnError: checkBoolean(siteOf(recorder, "split"), "stopOnError", settings.stopOnError) ?? false,
      aggregate: checkFunction<AggregationStrategy>(
        siteOf(recorder, "split"),
        "aggregate",
        settings.aggregate,
      ),
    };
  },
  step: {
    type: "split",
    compile: (definition, scope) => {
      const evaluate = scope.expression(definition.expression);
      const block = scope.compileSteps(definition.steps, scope.label);
      const plan: FanOutPlan = {
        routeId: scope.routeId,
        label: scope.label,
        limit: definition.parallel,
        stopOnError: definition.stopOnError,
        aggregate: definition.aggregate,
        verb: "split",
        // The original waits while its parts run: each part copies its headers and properties on
        // first use only (a part that never reads them costs no copy).
        prepare: partOf,
        partProperties: addSplitProperties,
        process: block,
        name: (_item, index) => `${SPLIT_INDEX}=${index}`,
      };
      const start = (exchange: Exchange, value: unknown): void | Promise<void> => {
        const source = partSourceOf(value);
        if (source === undefined) {
          throw new RoutekitError(
            "EXPRESSION_FAILED",
            `Route '${scope.routeId}' step ${scope.label}: the split expression yielded ${describeValue(value)}; expected an array, an iterable or an async iterable (null or undefined: no parts)`,
          );
        }
        return runFanOut(plan, exchange, source);
      };
      return (exchange) => {
        const value = evaluate(exchange);
        if (value instanceof Promise) return value.then((resolved: unknown) => start(exchange, resolved));
        return start(exchange, value);
      };
    },
    shape: {
      blocks: (definition) => [{ name: "steps", suffix: "", options: {}, steps: definition.steps }],
      runsUserCode: false,
    },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Splits the message into parts (an array, any iterable or async iterable, pulled one at a
     * time) and runs `step` on a copy of the exchange per part. With `aggregate` the aggregate's
     * body and headers continue; without it the original message continues unchanged.
     */
    split<TPart, TResult>(
      expression: SplitExpression<TBody, TPart>,
      step: Step<TPart>,
      options: SplitOptions<TPart, TResult> & { aggregate: AggregationStrategy<TResult, TPart> },
    ): RouteDsl<TResult>;
    split<TPart = unknown>(
      expression: SplitExpression<TBody, TPart>,
      step: Step<TPart>,
      options?: SplitOptions<TPart>,
    ): RouteDsl<TBody>;
  }
}
