import type { CompileContext } from "../compile/compile-context.js";
import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Endpoint } from "../components/component.js";
import type { ComponentContext, ShutdownParticipant } from "../components/component-context.js";
import type { DeadlineSet, SignalSource } from "../exchange/exchange-deadline.js";
import type { Logger } from "../exchange/logger.js";
import type { Exchange } from "../model/exchange.js";
import type { EndpointCheck } from "../support/endpoint-allowlist.js";
import type { ExchangeInit, RouteContextBase } from "./context-types.js";

/** What components and compilers may use of a context beyond its public API. */
export interface ContextInternals extends ContextInternalsBase, CompileContext, ComponentContext {}

export type { ShutdownParticipant } from "../components/component-context.js";

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
