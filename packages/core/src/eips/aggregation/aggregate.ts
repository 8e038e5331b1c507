import {
  checkBoolean,
  checkExpression,
  checkOptionKeys,
  checkPositive,
  checkPredicate,
  invalid,
  siteOf,
} from "../../dsl/option-checks.js";
import type { ExpressionOf, PredicateOf } from "../../dsl/route-dsl.js";
import { defineVerb, type Recorder } from "../../dsl/verbs.js";
import type { ExpressionInput } from "../../model/route-definition.js";
import type { AggregateDefinition } from "../../model/steps/routing-steps.js";
import { describeValue } from "../../support/describe-value.js";
import {
  type AggregationRepository,
  createMemoryAggregationRepository,
  isSharedAggregationRepository,
  type SharedAggregationRepository,
} from "./aggregation-repository.js";
import type { AggregationStrategy } from "./aggregation-strategies.js";
import { Aggregator } from "./aggregator.js";
import { SharedAggregator } from "./shared-aggregator.js";

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
  /**
   * Where open groups live. Default: a new in-memory repository. A repository shared between
   * processes (`@routekit/redis`, `@routekit/postgres`) lets several instances aggregate together.
   */
  repository?: AggregationRepository | SharedAggregationRepository;
  /**
   * Identifies a part (e.g. `"\${header.messageId}"`), so that a part delivered again (after a
   * crash, or a duplicate) is not added twice. Shared repositories only.
   */
  partId?: ExpressionOf<TBody>;
  /** Recovery of completed groups whose processing failed or whose instance died. Shared repositories only. */
  recovery?: AggregateRecoveryOptions;
  /** How often each instance looks for timed-out groups of a shared repository, in ms. Default 1000. */
  completionTimeoutCheckInterval?: number;
  /** Drop (log at debug) exchanges whose correlation value is missing, instead of failing them. Default false. */
  ignoreInvalidCorrelationKeys?: boolean;
}

/** Recovery of completed groups in a shared repository (Camel's `recover`). */
export interface AggregateRecoveryOptions {
  /** A completed group not confirmed this many ms after completion (or its last recovery) is processed again. Default 5000. */
  interval?: number;
  /** Recovery attempts before a group goes to `deadLetterUri`. Default 3; without `deadLetterUri`, no limit. */
  maximumRedeliveries?: number;
  /** Where a group goes after `maximumRedeliveries` failed recoveries (its body and headers). */
  deadLetterUri?: string;
}

const OPTIONS = [
  "strategy",
  "completionSize",
  "completionTimeout",
  "completionInterval",
  "completionPredicate",
  "eagerCheckCompletion",
  "repository",
  "ignoreInvalidCorrelationKeys",
  "partId",
  "recovery",
  "completionTimeoutCheckInterval",
] as const;

const RECOVERY_OPTIONS = ["interval", "maximumRedeliveries", "deadLetterUri"] as const;

const REPOSITORY_METHODS = ["get", "put", "remove", "keys"] as const;
const SHARED_REPOSITORY_METHODS = [
  "read",
  "write",
  "complete",
  "confirm",
  "recover",
  "expired",
  "keys",
] as const;

function checkRepository(
  recorder: Recorder,
  value: unknown,
): AggregationRepository | SharedAggregationRepository | undefined {
  if (value === undefined) return undefined;
  const shared = isSharedAggregationRepository(value);
  const methods = shared ? SHARED_REPOSITORY_METHODS : REPOSITORY_METHODS;
  const missing =
    typeof value === "object" && value !== null
      ? methods.filter((name) => typeof (value as Record<string, unknown>)[name] !== "function")
      : methods;
  if (missing.length > 0) {
    const expected = shared
      ? "a SharedAggregationRepository { read, write, complete, confirm, recover, expired, keys }"
      : "an AggregationRepository { get, put, remove, keys }";
    throw invalid(
      siteOf(recorder, "aggregate"),
      `option 'repository' must be ${expected}; ${describeValue(value)} lacks ${missing.join(", ")}`,
    );
  }
  return value as AggregationRepository | SharedAggregationRepository;
}

function checkRecovery(recorder: Recorder, value: unknown): AggregateDefinition["recovery"] {
  const settings = checkOptionKeys(siteOf(recorder, "aggregate"), value, RECOVERY_OPTIONS);
  const deadLetterUri = settings.deadLetterUri;
  if (deadLetterUri !== undefined && (typeof deadLetterUri !== "string" || !deadLetterUri.includes(":"))) {
    throw invalid(
      siteOf(recorder, "aggregate"),
      `option 'recovery.deadLetterUri' must be an endpoint URI like "seda:failed", found ${describeValue(deadLetterUri)}`,
    );
  }
  return {
    interval: checkPositive(siteOf(recorder, "aggregate"), "recovery.interval", settings.interval) ?? 5000,
    maximumRedeliveries:
      checkPositive(
        siteOf(recorder, "aggregate"),
        "recovery.maximumRedeliveries",
        settings.maximumRedeliveries,
        true,
      ) ?? 3,
    deadLetterUri,
  };
}

/** The definition from checked options: each option checked on its own, in the order written. */
function definitionOf(
  recorder: Recorder,
  correlation: ExpressionInput,
  settings: Record<string, unknown>,
): AggregateDefinition {
  const site = siteOf(recorder, "aggregate");
  return {
    type: "aggregate",
    correlation,
    strategy: settings.strategy as AggregationStrategy,
    completionSize: checkPositive(site, "completionSize", settings.completionSize, true),
    completionTimeout: checkPositive(site, "completionTimeout", settings.completionTimeout),
    completionInterval: checkPositive(site, "completionInterval", settings.completionInterval),
    completionPredicate:
      settings.completionPredicate === undefined
        ? undefined
        : checkPredicate(
            site,
            settings.completionPredicate,
            "option 'completionPredicate' to be a predicate",
          ),
    eagerCheckCompletion: checkBoolean(site, "eagerCheckCompletion", settings.eagerCheckCompletion) ?? false,
    repository: checkRepository(recorder, settings.repository),
    ignoreInvalidCorrelationKeys:
      checkBoolean(site, "ignoreInvalidCorrelationKeys", settings.ignoreInvalidCorrelationKeys) ?? false,
    partId:
      settings.partId === undefined
        ? undefined
        : checkExpression(site, settings.partId, "option 'partId' to be an expression"),
    recovery: checkRecovery(recorder, settings.recovery),
    completionTimeoutCheckInterval:
      checkPositive(site, "completionTimeoutCheckInterval", settings.completionTimeoutCheckInterval) ?? 1000,
  };
}

/** The checks between options: shared-only options, one completion condition at least, no conflicts. */
function checkCombination(
  recorder: Recorder,
  settings: Record<string, unknown>,
  definition: AggregateDefinition,
): void {
  const site = siteOf(recorder, "aggregate");
  const sharedOnly = (["partId", "recovery", "completionTimeoutCheckInterval"] as const).filter(
    (name) => settings[name] !== undefined,
  );
  if (sharedOnly.length > 0 && !isSharedAggregationRepository(definition.repository)) {
    throw invalid(
      site,
      `option '${sharedOnly[0]}' needs a repository shared between processes (e.g. from @routekit/redis or @routekit/postgres); the in-memory repository has no use for it`,
    );
  }
  const { completionSize, completionTimeout, completionInterval, completionPredicate } = definition;
  if (
    [completionSize, completionTimeout, completionInterval, completionPredicate].every(
      (value) => value === undefined,
    )
  ) {
    throw invalid(
      site,
      "needs a completion condition: completionSize, completionTimeout, completionInterval or completionPredicate",
    );
  }
  if (completionTimeout !== undefined && completionInterval !== undefined) {
    throw invalid(site, "takes completionTimeout or completionInterval, not both");
  }
  if (definition.eagerCheckCompletion && completionPredicate === undefined) {
    throw invalid(site, "has eagerCheckCompletion without a completionPredicate to check");
  }
}

export const aggregateVerb = defineVerb({
  record: (recorder, correlation: unknown, options?: unknown): AggregateDefinition => {
    const key = checkExpression(siteOf(recorder, "aggregate"), correlation, "a correlation expression");
    if (options === undefined)
      throw invalid(
        siteOf(recorder, "aggregate"),
        "expects options with a strategy and a completion condition",
      );
    const settings = checkOptionKeys(siteOf(recorder, "aggregate"), options, OPTIONS);
    if (typeof settings.strategy !== "function") {
      throw invalid(
        siteOf(recorder, "aggregate"),
        `option 'strategy' must be a function (previous, next) => exchange, found ${describeValue(settings.strategy)}`,
      );
    }
    const definition = definitionOf(recorder, key, settings);
    checkCombination(recorder, settings, definition);
    return definition;
  },
  step: {
    type: "aggregate",
    compile: (definition, scope) => {
      const context = scope.context;
      const common = {
        routeId: scope.routeId,
        label: scope.label,
        context,
        correlation: scope.expression(definition.correlation),
        strategy: definition.strategy,
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
      };
      if (isSharedAggregationRepository(definition.repository)) {
        const shared = new SharedAggregator({
          ...common,
          repository: definition.repository,
          partId: definition.partId === undefined ? undefined : scope.expression(definition.partId),
          recoveryInterval: definition.recovery.interval,
          maximumRedeliveries: definition.recovery.maximumRedeliveries,
          deadLetterUri: definition.recovery.deadLetterUri,
          completionTimeoutCheckInterval: definition.completionTimeoutCheckInterval,
        });
        // Recovery and timeouts run from the context's start, whether or not messages arrive.
        context.addLifecycle({ start: () => shared.start() });
        if (context.state === "started") shared.start();
        scope.onRouteStop(() => shared.stop());
        return (exchange) => shared.offer(exchange);
      }
      const aggregator = new Aggregator({
        ...common,
        repository: definition.repository ?? createMemoryAggregationRepository(),
      });
      scope.onRouteStop(() => aggregator.stop());
      return (exchange) => aggregator.offer(exchange);
    },
    shape: {
      takesRestOfBlock: () => true,
      endpoints: (definition) =>
        definition.recovery.deadLetterUri === undefined
          ? []
          : [{ uri: definition.recovery.deadLetterUri, role: "dead-letter" }],
      runsUserCode: false,
    },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Groups exchanges by the correlation expression and merges each group with `strategy`.
     * Incoming exchanges stop here (a caller gets its own body back); each completed group runs
     * the rest of the block as a new exchange, with properties `aggregate.completedBy`,
     * `aggregate.size` and `aggregate.correlationKey`. Open groups complete when the route stops
     * (with a shared repository they stay in the store for the other instances).
     */
    aggregate<TResult = TBody>(
      correlation: ExpressionOf<TBody>,
      options: AggregateOptions<TBody, TResult>,
    ): RouteDsl<TResult>;
  }
}
