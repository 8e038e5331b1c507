import type { Exchange } from "./exchange.js";

/**
 * A typed name of an exchange property, made by `definePropertyKey`. `transient` marks state that
 * belongs to this process (a span, a live stream, an open handle): it is never stored (a shared
 * aggregation repository, any codec of stored exchanges), never sent over a broker, and never
 * copied into an aggregated group.
 */
export interface PropertyKey<TValue> {
  readonly name: string;
  readonly transient: boolean;
  /** The property's value on `exchange`, undefined when it is not set. */
  get(exchange: Exchange): TValue | undefined;
  set(exchange: Exchange, value: TValue | undefined): void;
}

/** What `definePropertyKey` takes. */
export interface PropertyKeyOptions {
  /** The property's name in `exchange.properties`; a package prefixes its own (`routekit.otel.trace`). */
  readonly name: string;
  /** True for state local to this process: never stored, sent or copied into a group. Default false. */
  readonly transient?: boolean;
}
