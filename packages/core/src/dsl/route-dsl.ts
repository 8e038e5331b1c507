import type { Exchange, Processor } from "../model/exchange.js";
import type { LogLevel } from "../model/route-definition.js";
import type { AllowedEndpoints } from "../support/endpoint-allowlist.js";

/** An expression over an exchange carrying `TBody`: a `${...}` string, a constant string, or a function. */
export type ExpressionOf<TBody, TValue = unknown> = string | ((exchange: Exchange<TBody>) => TValue);
/** A predicate over an exchange carrying `TBody`. */
export type PredicateOf<TBody> = string | ((exchange: Exchange<TBody>) => unknown);
/** A nested block: `(route) => route.to(...)...`. */
export type Step<TBody = unknown> = (route: RouteDsl<TBody>) => unknown;

/** Options of the `toD` verb. */
export interface ToDynamicOptions {
  /**
   * Insert `${...}` values into the URI as they are, instead of percent-encoded. Only for values
   * the route author controls: a value from a message could then add endpoint options (such as
   * `?httpMethod=DELETE`) or `..` segments. Default false.
   */
  raw?: boolean;
  /** Endpoints this step keeps, least recently used dropped first (Camel's `cacheSize`). Default 1000; 0 keeps none. */
  cacheSize?: number;
  /**
   * The endpoints this step may send to, checked on each built URI (scheme, path and options)
   * before any endpoint is made: patterns such as `"seda:*"`, `"http://api.example/*"` or a
   * predicate (see `AllowedEndpoints`). Default: the context's `allowedEndpoints`, if any.
   */
  allowedEndpoints?: AllowedEndpoints;
}

/** Options of the `log` verb. */
export interface LogStepOptions {
  level?: LogLevel;
  /** Logger name; default the route id. */
  logger?: string;
}

/**
 * The fluent route DSL. Each call records a step into a plain route definition; nothing runs
 * until the context compiles and starts the route. Packages add verbs by declaration merging
 * on this interface plus `defineStep(...)` or `installVerbs(...)` at runtime.
 */
export interface RouteDsl<TBody = unknown> extends CoreVerbs<TBody> {}

/**
 * Core's own verbs. A core verb's file declares its method here (not on `RouteDsl`), and core's
 * verb list (`eips/core-verbs.ts`) must hold a descriptor under every name declared here: a verb
 * declared and not installed is a type error, not `sample is not a function` at run time.
 */
export interface CoreVerbs<TBody> {
  /** Names the route (default `route1`, `route2`, ...). Only on the route itself, not in a block. */
  routeId(id: string): RouteDsl<TBody>;
  description(text: string): RouteDsl<TBody>;
  /** Runs a function on the exchange; may be async. */
  process(processor: Processor<TBody>, label?: string): RouteDsl<TBody>;
  /** Sends to an endpoint; for request-reply endpoints the reply becomes the body. */
  to<TReply = TBody>(uri: string): RouteDsl<TReply>;
  /**
   * Like `to`, with a URI computed per exchange (`"seda:${header.kind}"`). Each `${...}` value
   * is percent-encoded as one path segment (or, after the template's `?`, one option value), so
   * message data can never add options, change the path or climb it; `{ raw: true }` inserts
   * values as they are. A function's result is used as it is. The endpoints a toD creates are
   * kept in a bounded LRU cache (`cacheSize`, default 1000; 0 keeps none).
   */
  toD<TReply = TBody>(uri: ExpressionOf<TBody, string>, options?: ToDynamicOptions): RouteDsl<TReply>;
  setBody<TResult>(expression: (exchange: Exchange<TBody>) => TResult): RouteDsl<Awaited<TResult>>;
  setBody(expression: string): RouteDsl<unknown>;
  /** Same as `setBody` (Camel's name for a message translation). */
  transform<TResult>(expression: (exchange: Exchange<TBody>) => TResult): RouteDsl<Awaited<TResult>>;
  transform(expression: string): RouteDsl<unknown>;
  setHeader(name: string, expression: ExpressionOf<TBody>): RouteDsl<TBody>;
  removeHeader(name: string): RouteDsl<TBody>;
  setProperty(name: string, expression: ExpressionOf<TBody>): RouteDsl<TBody>;
  /** Only exchanges matching the predicate continue; a type guard narrows the body type. */
  filter<TNarrow extends TBody>(
    predicate: (exchange: Exchange<TBody>) => exchange is Exchange<TNarrow>,
  ): RouteDsl<TNarrow>;
  filter(predicate: PredicateOf<TBody>): RouteDsl<TBody>;
  /** Logs a message (an expression) at a level (default info). */
  log(message: ExpressionOf<TBody>, options?: LogLevel | LogStepOptions): RouteDsl<TBody>;
  /** Stops routing this exchange (its callers too); the reply is the current body. */
  stop(): RouteDsl<TBody>;
}

/** The DSL at the start of a route, before any step. */
export type FromDsl<TBody> = RouteDsl<TBody>;
