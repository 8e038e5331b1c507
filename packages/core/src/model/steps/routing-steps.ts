import type { AllowedEndpoints } from "../../support/endpoint-allowlist.js";
import type { Exchange, Headers } from "../exchange.js";
import type { AggregationRepository, SharedAggregationRepository } from "../repositories.js";
import type { AggregationStrategy, ExpressionInput, PredicateInput } from "../step-inputs.js";

/**
 * What an enrich strategy returns: the body that continues, and the headers when they change
 * (left out: the original's stay). An exchange is one (`original` after changing it, or `resource`).
 */
export interface EnrichResult<TResult = unknown> {
  readonly body: TResult;
  readonly headers?: Headers | undefined;
}

/**
 * Merges the enrichment resource into the original: returns the body (and headers) that continue,
 * e.g. `({ body: { ...original.body, price: resource.body } })`; the route's body type follows it.
 */
export type EnrichStrategy<TBody = unknown, TResource = unknown, TResult = unknown> = (
  original: Exchange<TBody>,
  resource: Exchange<TResource>,
) => EnrichResult<TResult>;

/** The options multicast and recipientList share, checked. */
export interface EndpointFanOutSettings {
  /** Copies in flight at once (1 = one after the other). */
  readonly parallel: number;
  readonly stopOnError: boolean;
  readonly aggregate: AggregationStrategy | undefined;
}

/** `multicast(uris, options)`: a copy of the exchange to every endpoint. */
export interface MulticastDefinition extends EndpointFanOutSettings {
  readonly type: "multicast";
  readonly uris: readonly string[];
}

/** `recipientList(expression, options)`: a copy to each endpoint the expression yields. */
export interface RecipientListDefinition extends EndpointFanOutSettings {
  readonly type: "recipientList";
  readonly expression: ExpressionInput;
  readonly delimiter: string;
  readonly cacheSize: number;
  /** The endpoints it may resolve (checked when recorded); undefined: the context's default. */
  readonly allowedEndpoints?: AllowedEndpoints;
}

/** `wireTap(uri)`: a copy to `uri`, fire and forget. */
export interface WireTapDefinition {
  readonly type: "wireTap";
  readonly uri: string;
}

/** `enrich(uri, aggregate?)`: request-reply to `uri` with a copy, merged back. */
export interface EnrichDefinition {
  readonly type: "enrich";
  readonly uri: string;
  readonly aggregate: EnrichStrategy | undefined;
}

/** `delay(ms | expression)`. */
export interface DelayDefinition {
  readonly type: "delay";
  readonly delay: number | ExpressionInput;
}

/** Recovery of completed groups in a shared aggregation repository, checked. */
export interface AggregateRecoveryDefinition {
  readonly interval: number;
  readonly maximumRedeliveries: number;
  readonly deadLetterUri: string | undefined;
}

/** `aggregate(correlation, options)`: groups exchanges; each completed group runs the rest of the block. */
export interface AggregateDefinition {
  readonly type: "aggregate";
  readonly correlation: ExpressionInput;
  readonly strategy: AggregationStrategy;
  readonly completionSize: number | undefined;
  readonly completionTimeout: number | undefined;
  readonly completionInterval: number | undefined;
  readonly completionPredicate: PredicateInput | undefined;
  readonly eagerCheckCompletion: boolean;
  readonly repository: AggregationRepository | SharedAggregationRepository | undefined;
  readonly ignoreInvalidCorrelationKeys: boolean;
  readonly partId: ExpressionInput | undefined;
  readonly recovery: AggregateRecoveryDefinition;
  readonly completionTimeoutCheckInterval: number;
}
