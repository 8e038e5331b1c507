import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Endpoint } from "../components/component.js";
import type { Exchange } from "../model/exchange.js";
import type { EndpointCheck } from "../support/endpoint-allowlist.js";
import type { ExchangeInit, RouteContext, RouteContextBase } from "./context-types.js";
import type { DeadlineSet, SignalSource } from "./exchange-deadline.js";
import type { Logger } from "./logger.js";

/** What components and compilers may use of a context beyond its public API. */
export interface ContextInternals extends ContextInternalsBase, RouteContext {}

/** The internals every context implements, whichever packages added members to `RouteContext`. */
export interface ContextInternalsBase extends RouteContextBase {
  /**
   * Records where an endpoint is used (e.g. "Route 'ask' step #1 to(llm:openai)"), so an endpoint
   * that fails to start is reported at the route and step that use it.
   */
  noteEndpointUse(uri: string, where: string): void;
  readonly logger: Logger;
  /** Counts work the context must wait for at shutdown (e.g. messages queued in seda). */
  trackPending(delta: number): void;
  /** The signal that fires when the context aborts in-flight work (stop past its timeout). */
  readonly shutdownSignal: AbortSignal;
  /** True when the context keeps an endpoint for exactly this URI. */
  hasEndpoint(uri: string): boolean;
  /** Stops keeping the endpoint of a URI (toD's bounded cache evicts with it); returns it, to be stopped. */
  forgetEndpoint(uri: string): Endpoint | undefined;
  /** Registers a component's part in a stop that runs out of time (kept across restarts). */
  addShutdownParticipant(participant: ShutdownParticipant): void;
  /**
   * A new exchange whose signal is `source`'s, read on first use: a caller that bounds the work
   * itself (an MCP call, with its deadline, its client's cancellation and its server's closing)
   * hands the exchange that one deadline instead of the exchange making one more. The exchange
   * owns no deadline, so `source` must also fire when the context aborts in-flight work: its
   * owner is in `shutdownDeadlines`.
   */
  createExchangeUnder<TBody = unknown>(init: ExchangeInit<TBody>, source: SignalSource): Exchange<TBody>;
  /**
   * The deadlines the current run aborts when it aborts in-flight work (a new set at each start):
   * the exchanges' own, and any a caller adds for work it runs under its own deadline.
   */
  readonly shutdownDeadlines: DeadlineSet;
  /** The context's `allowedEndpoints` for dynamic sends whose step sets none; undefined = any. */
  readonly allowedEndpoints: EndpointCheck | undefined;
  /** The step interceptors added so far, in order (the compiler wraps each step in them). */
  readonly interceptors: readonly StepInterceptor[];
}

/**
 * A component's part in a stop that runs out of time: what it holds (queued messages, producers
 * waiting for room, callers waiting for a reply) must be settled, never silently left behind.
 */
export interface ShutdownParticipant {
  /**
   * The stop's timeout passed and in-flight work was aborted: fail every message still queued and
   * every producer still waiting, with an error saying so. Returns what it dropped, for the stop
   * error (e.g. "seda:work: 30 queued messages dropped"), or undefined when it dropped nothing.
   */
  aborted(reason: Error): string | undefined;
  /** The grace after the abort is over too: settle every caller still waiting on work that never ended. */
  abandoned(): string | undefined;
}
