import type { ComponentTraits } from "../model/component-traits.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { ComponentContext } from "./component-context.js";
import type { OptionSchema, OptionsOf } from "./endpoint-options.js";

/** What a stop hook gets: the time it may take and a signal that fires when it is up. */
export interface StopBudget {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** A parsed endpoint URI `scheme:path?options`, options already validated against the component's schema. */
export interface EndpointAddress<TOptions = Record<string, unknown>> {
  /** The URI as normalised (used as the endpoint's identity). */
  readonly uri: string;
  readonly scheme: string;
  readonly path: string;
  readonly options: TOptions;
}

/** What a route consumes from: started with the route, stopped (stops taking work) before it. */
export interface Consumer {
  /**
   * Internal consumers (direct, seda) keep serving until in-flight work is done at shutdown;
   * external ones (timers, brokers, HTTP) stop taking work first.
   */
  readonly internal?: boolean;
  start(): void | Promise<void>;
  /** Stop taking new work. In-flight exchanges are tracked by the context, which waits for them. */
  stop(): void | Promise<void>;
}

/** Runs one exchange through a route; never throws; returns a promise only when a step was asynchronous. */
export type RouteProcessor = (exchange: Exchange) => void | Promise<void>;

/** Information about the route that owns a consumer. */
export interface ConsumerRoute {
  readonly routeId: string;
  /**
   * For a message the consumer accepted but the route will never process (e.g. dropped at
   * shutdown): fails the exchange with `reason` through the route's error handling (onException,
   * dead letter channel), with in-flight tracking and events, as if its first step had failed.
   * Never throws; what remains unhandled is left on `exchange.error`.
   */
  readonly reject: (exchange: Exchange, reason: Error) => void | Promise<void>;
}

/** One addressable endpoint, shared by every producer and consumer of the same URI in a context. */
export interface Endpoint {
  readonly uri: string;
  /** Sends the exchange to the endpoint. For InOut exchanges the reply replaces the body. */
  readonly send: Processor;
  /**
   * Creates the consumer that feeds `processor` (the route). `processor` runs one exchange
   * through the route with in-flight tracking and error handling; it never throws — a failure
   * is left on `exchange.error` for the consumer to act on (reply, nack, dead-letter...).
   * It returns a promise only when some step was asynchronous: `await` its result.
   */
  createConsumer?(processor: RouteProcessor, route: ConsumerRoute): Consumer;
  start?(): void | Promise<void>;
  /** Bounded like a lifecycle hook: the context stops waiting when `budget.signal` fires. */
  stop?(budget: StopBudget): void | Promise<void>;
}

/** A component: a URI scheme, its option schema, and how it makes endpoints. */
export interface Component<TSchema extends OptionSchema = OptionSchema> {
  readonly scheme: string;
  readonly options: TSchema;
  /**
   * Prefixes this component puts before the names of its protocol's headers (`http.header.`,
   * `http.request.header.`). Redaction strips them to find a header's own name, so a credential
   * header (`http.request.header.authorization`) is hidden wherever data leaves the process.
   */
  readonly headerPrefixes?: readonly string[];
  /**
   * Makes the endpoint of one URI (once per context). `context` is the context the endpoint
   * belongs to, with what a component needs beyond the public API: counting the work a stop must
   * wait for, taking part in a stop that runs out of time, and the signal that fires then.
   */
  createEndpoint(address: EndpointAddress<OptionsOf<TSchema>>, context: ComponentContext): Endpoint;
  /**
   * What observers (tracing, the console) read about its endpoints: in-process or not, the
   * messaging system, where protocol headers sit. A function when they depend on the address
   * (`http:/path` serves, `http://host/path` calls); default `{ inProcess: false }`. Read with
   * `context.componentTraits(uri)`.
   */
  readonly traits?:
    | ComponentTraits
    | ((address: { readonly scheme: string; readonly path: string }) => ComponentTraits);
}

/** Identity helper that keeps a component's option types. */
export function defineComponent<TSchema extends OptionSchema>(
  component: Component<TSchema>,
): Component<TSchema> {
  return component;
}
