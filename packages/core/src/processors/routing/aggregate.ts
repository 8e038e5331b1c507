import type { ContextInternals } from "../../runtime/context-internals.js";
import { describeValue } from "../../expressions/expression-errors.js";
import type { ExpressionInput, PredicateInput } from "../../model/route-definition.js";
import type { ExpressionOf, PredicateOf } from "../../dsl/route-dsl.js";
import { defineVerb, type Recorder } from "../../dsl/verbs.js";
import { type AggregationRepository, createMemoryAggregationRepository } from "./aggregation-repository.js";
import type { AggregationStrategy } from "./aggregation-strategies.js";
import { Aggregator } from "./aggregator.js";
import {
  checkBoolean,
  checkExpression,
  checkOptions,
  checkPositive,
  checkPredicate,
  invalid,
} from "./arguments.js";

/** Options of `aggregate`; at least one completion condition is required. */
export interface AggregateOptions<TBody = unknown, TResult = unknown> {
  /** Merges the next exchange of a group into the group so far (`previous` is undefined for the first). */
  strategy: AggregationStrategy<TResult, TBody>;
  /** Complete a group once it holds this many exchanges. */
  completionSize?: number;
  /** Complete a group after this many ms without a new exchange for it (restarted by each one). */
  completionTimeout?: number;
  /** Complete every open group every this many ms. Not together with completionTimeout. */
  completionInterval?: number;
  /** Complete a group when this holds for the aggregated exchange (the incoming one when eager). */
  completionPredicate?: PredicateOf<TResult>;
  /** Evaluate completionPredicate on each incoming exchange instead of the aggregate. Default false. */
  eagerCheckCompletion?: boolean;
  /** Where open groups live. Default: a new in-memory repository. */
  repository?: AggregationRepository;
  /** Drop (log at debug) exchanges whose correlation value is missing, instead of failing them. Default false. */
  ignoreInvalidCorrelationKeys?: boolean;
}

type AggregateDefinition = {
  readonly type: "eip:aggregate";
  readonly correlation: ExpressionInput;
  readonly strategy: AggregationStrategy;
  readonly completionSize: number | undefined;
  readonly completionTimeout: number | undefined;
  readonly completionInterval: number | undefined;
  readonly completionPredicate: PredicateInput | undefined;
  readonly eagerCheckCompletion: boolean;
  readonly repository: AggregationRepository | undefined;
  readonly ignoreInvalidCorrelationKeys: boolean;
};

const OPTIONS = [
  "strategy",
  "completionSize",
  "completionTimeout",
  "completionInterval",
  "completionPredicate",
  "eagerCheckCompletion",
  "repository",
  "ignoreInvalidCorrelationKeys",
] as const;

const REPOSITORY_METHODS = ["get", "put", "remove", "keys"] as const;

function checkRepository(recorder: Recorder, value: unknown): AggregationRepository | undefined {
  if (value === undefined) return undefined;
  const missing =
    typeof value === "object" && value !== null
      ? REPOSITORY_METHODS.filter((name) => typeof (value as Record<string, unknown>)[name] !== "function")
      : REPOSITORY_METHODS;
  if (missing.length > 0) {
    throw invalid(
      recorder,
      "aggregate",
      `option 'repository' must be an AggregationRepository { get, put, remove, keys }; ${describeValue(value)} lacks ${missing.join(", ")}`,
    );
  }
  return value as AggregationRepository;
}

defineVerb(
  "aggregate",
  (recorder, correlation: unknown, options?: unknown): AggregateDefinition => {
    const key = checkExpression(recorder, "aggregate", correlation, "a correlation expression");
    if (options === undefined)
      throw invalid(recorder, "aggregate", "expects options with a strategy and a completion condition");
    const settings = checkOptions(recorder, "aggregate", options, OPTIONS);
    if (typeof settings.strategy !== "function") {
      throw invalid(
        recorder,
        "aggregate",
        `option 'strategy' must be a function (previous, next) => exchange, found ${describeValue(settings.strategy)}`,
      );
    }
    const definition: AggregateDefinition = {
      type: "eip:aggregate",
      correlation: key,
      strategy: settings.strategy as AggregationStrategy,
      completionSize: checkPositive(recorder, "aggregate", "completionSize", settings.completionSize, true),
      completionTimeout: checkPositive(
        recorder,
        "aggregate",
        "completionTimeout",
        settings.completionTimeout,
      ),
      completionInterval: checkPositive(
        recorder,
        "aggregate",
        "completionInterval",
        settings.completionInterval,
      ),
      completionPredicate:
        settings.completionPredicate === undefined
          ? undefined
          : checkPredicate(
              recorder,
              "aggregate",
              settings.completionPredicate,
              "option 'completionPredicate' to be a predicate",
            ),
      eagerCheckCompletion:
        checkBoolean(recorder, "aggregate", "eagerCheckCompletion", settings.eagerCheckCompletion) ?? false,
      repository: checkRepository(recorder, settings.repository),
      ignoreInvalidCorrelationKeys:
        checkBoolean(
          recorder,
          "aggregate",
          "ignoreInvalidCorrelationKeys",
          settings.ignoreInvalidCorrelationKeys,
        ) ?? false,
    };
    const { completionSize, completionTimeout, completionInterval, completionPredicate } = definition;
    if (
      [completionSize, completionTimeout, completionInterval, completionPredicate].every(
        (value) => value === undefined,
      )
    ) {
      throw invalid(
        recorder,
        "aggregate",
        "needs a completion condition: completionSize, completionTimeout, completionInterval or completionPredicate",
      );
    }
    if (completionTimeout !== undefined && completionInterval !== undefined) {
      throw invalid(recorder, "aggregate", "takes completionTimeout or completionInterval, not both");
    }
    if (definition.eagerCheckCompletion && completionPredicate === undefined) {
      throw invalid(recorder, "aggregate", "has eagerCheckCompletion without a completionPredicate to check");
    }
    return definition;
  },
  (definition, scope) => {
    const aggregator = new Aggregator({
      routeId: scope.routeId,
      label: scope.label,
      context: scope.context as ContextInternals,
      correlation: scope.expression(definition.correlation),
      strategy: definition.strategy,
      repository: definition.repository ?? createMemoryAggregationRepository(),
      completionSize: definition.completionSize,
      completionTimeout: definition.completionTimeout,
      completionInterval: definition.completionInterval,
      completionPredicate:
        definition.completionPredicate === undefined
          ? undefined
          : scope.predicate(definition.completionPredicate),
      eagerCheckCompletion: definition.eagerCheckCompletion,
      ignoreInvalidCorrelationKeys: definition.ignoreInvalidCorrelationKeys,
      rest: scope.restOfBlock(),
    });
    scope.onRouteStop(() => aggregator.stop());
    return (exchange) => aggregator.offer(exchange);
  },
  "eip:aggregate",
);

declare module "../../dsl/route-dsl.js" {
  interface RouteDsl<TBody> {
    /**
     * Groups exchanges by the correlation expression and merges each group with `strategy`.
     * Incoming exchanges stop here (a caller gets its own body back); each completed group runs
     * the rest of the block as a new exchange, with properties `aggregate.completedBy`,
     * `aggregate.size` and `aggregate.correlationKey`. Open groups complete when the route stops.
     */
    aggregate<TResult = TBody>(
      correlation: ExpressionOf<TBody>,
      options: AggregateOptions<TBody, TResult>,
    ): RouteDsl<TResult>;
  }
}
