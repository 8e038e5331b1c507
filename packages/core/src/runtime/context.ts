// Step interceptors and message history (the channel, compile/): added by the channel work.

import {
  checkMessageHistory,
  type MessageHistoryOption,
  messageHistoryInterceptor,
} from "../compile/message-history.js";
import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Component, Endpoint } from "../components/component.js";
import { directComponent } from "../components/direct.js";
import { logComponent } from "../components/log.js";
import { type MockEndpoint, mockComponent } from "../components/mock.js";
import { sedaComponent } from "../components/seda.js";
import { timerComponent } from "../components/timer.js";
import { EventBus } from "../exchange/events.js";
import type { DeadlineSet, SignalSource } from "../exchange/exchange-deadline.js";
import { createConsoleLogger, type Logger } from "../exchange/logger.js";
import type { ComponentTraits } from "../model/component-traits.js";
import type { ContextDescription } from "../model/description.js";
import type { Exchange, Headers, Processor } from "../model/exchange.js";
import type { LogLevel } from "../model/route-definition.js";
import type { RouteSource } from "../model/route-source.js";
import type { ServiceKey } from "../model/service-key.js";
import {
  type AllowedEndpoints,
  compileAllowedEndpoints,
  type EndpointCheck,
} from "../support/endpoint-allowlist.js";
import { checkServiceCreate } from "./check-extension.js";
import type { ContextInternals, ContextInternalsBase, ShutdownParticipant } from "./context-internals.js";
import { ContextLifecycle } from "./context-lifecycle.js";
import { ContextPlugins } from "./context-plugins.js";
import { ContextRoutes } from "./context-routes.js";
import { ContextSends } from "./context-sends.js";
import type {
  ContextState,
  ExchangeInit,
  LifecycleHook,
  Plugin,
  RouteAspectHandler,
  RouteContext,
  RouteStatus,
  StopOptions,
} from "./context-types.js";
import { EndpointRegistry } from "./endpoint-registry.js";
import { PendingWork } from "./pending-work.js";
import type { Producer } from "./producer.js";
import { RouteTable } from "./route-table.js";
import { Senders } from "./senders.js";

/** Options of `createContext`. */
export interface ContextOptions {
  /** A name for log lines and errors. */
  name?: string;
  logger?: Logger;
  /** Threshold of the default console logger (default "info"). */
  logLevel?: LogLevel;
  /**
   * Record the steps each exchange goes through, read with `messageHistoryOf(exchange)` (off by
   * default): `true` keeps the most recent 1000 entries per exchange, `{ maxEntries }` that many.
   */
  messageHistory?: MessageHistoryOption;
  /**
   * The endpoints dynamic sends (`toD`, `recipientList`) may resolve when the step gives no
   * `allowedEndpoints` of its own: patterns such as `"seda:*"` or a predicate (see
   * `AllowedEndpoints`). Default: no restriction beyond toD's encoding of `${...}` values.
   */
  allowedEndpoints?: AllowedEndpoints;
}

/** What the context needs of the DSL, handed in by `createContext` (the runtime never imports the DSL). */
export interface ContextWiring {
  /** What `addRoutes` takes, as a route source; undefined for anything else. */
  toRouteSource(routes: unknown): RouteSource | undefined;
  /** Plugins every new context installs before any other (see `definePlugin`). */
  defaultPlugins: readonly Plugin[];
}

// Members that packages merge into RouteContext (such as `tools`) are installed on each context by
// a plugin's `properties`: this interface tells the compiler so, whichever packages are loaded,
// while `implements ContextInternalsBase` still checks the members the class defines itself.
// biome-ignore lint/correctness/noUnusedVariables: merged with the class below
interface RoutekitContext extends ContextInternals {}

/**
 * A context: the composition of its parts, each in its own file. Endpoints (endpoint-registry),
 * the senders of its own sends (senders), plugins' steps, aspects, interceptors and services
 * (context-plugins), the work in flight (pending-work), start and stop (context-lifecycle), routes
 * (route-table, context-routes) and what callers send with (context-sends).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
class RoutekitContext implements ContextInternalsBase {
  readonly name: string;
  readonly events = new EventBus();
  readonly logger: Logger;
  readonly #registry = new EndpointRegistry();
  readonly #pending = new PendingWork();
  readonly #participants: ShutdownParticipant[] = [];
  readonly #plugins = new ContextPlugins();
  /** What the context's own sends go to, per URI (wrapped by interceptors' `wrapSend`). */
  readonly #senders = new Senders((uri) => this.endpoint(uri), this.#plugins.interceptors);
  readonly #table = new RouteTable(this, this.#plugins.aspects);
  readonly #lifecycle = new ContextLifecycle({
    context: this,
    events: this.events,
    registry: this.#registry,
    routes: this.#table,
  });
  readonly #routes: ContextRoutes;
  readonly #sends = new ContextSends(this, this.#lifecycle, this.#senders);
  readonly allowedEndpoints: EndpointCheck | undefined;

  constructor(options: ContextOptions, wiring: ContextWiring) {
    this.name = options.name ?? "routekit";
    this.logger = options.logger ?? createConsoleLogger(options.logLevel);
    this.allowedEndpoints =
      options.allowedEndpoints === undefined
        ? undefined
        : compileAllowedEndpoints(options.allowedEndpoints, "the context's option 'allowedEndpoints'");
    this.#routes = new ContextRoutes({
      context: this,
      toRouteSource: (routes) => wiring.toRouteSource(routes),
      aspects: this.#plugins.aspects,
      registry: this.#registry,
      lifecycle: this.#lifecycle,
      table: this.#table,
    });
    const historyEntries = checkMessageHistory(options.messageHistory);
    if (historyEntries > 0) this.addInterceptor(messageHistoryInterceptor(historyEntries));
    for (const component of [directComponent, sedaComponent, timerComponent, logComponent, mockComponent]) {
      this.addComponent(component as unknown as Component);
    }
    for (const plugin of wiring.defaultPlugins) this.use(plugin);
  }

  // Plugins and what they add: components, lifecycle hooks, interceptors, steps, aspects, services.

  use(plugin: Plugin): this {
    this.#plugins.install(plugin, this);
    return this;
  }

  addComponent(component: Component): this {
    this.#registry.addComponent(component);
    return this;
  }

  addLifecycle(hook: LifecycleHook): this {
    this.#lifecycle.addHook(hook, this.#plugins.installingLabel);
    return this;
  }

  addInterceptor(interceptor: StepInterceptor): this {
    this.#senders.interceptorAdded(this.#plugins.addInterceptor(interceptor));
    return this;
  }

  get interceptors(): readonly StepInterceptor[] {
    return this.#plugins.interceptors;
  }

  /** The DSL steps this context's plugins added (the compiler reads them). */
  get pluginSteps(): ReadonlyMap<string, (...args: never[]) => Processor> {
    return this.#plugins.steps;
  }

  /** The handler of aspect `name` in this context, if a plugin installed one. */
  aspectHandler(name: string): RouteAspectHandler | undefined {
    return this.#plugins.aspects.get(name);
  }

  service<T>(key: ServiceKey<T>): T;
  service<T>(key: string, create: (context: RouteContext) => T): T;
  service<T>(key: string | ServiceKey<T>, create?: (context: RouteContext) => T): T {
    if (typeof key === "string") return this.#plugins.service(key, this, checkServiceCreate(key, create));
    return this.#plugins.service(key, this, key.create);
  }

  // Start and stop, and the work they wait for.

  get state(): ContextState {
    return this.#lifecycle.state;
  }

  start(): Promise<void> {
    return this.#lifecycle.start();
  }

  stop(options?: StopOptions): Promise<void> {
    return this.#lifecycle.stop(options);
  }

  get shutdownSignal(): AbortSignal {
    return this.#lifecycle.shutdown.controller.signal;
  }

  get participants(): readonly ShutdownParticipant[] {
    return this.#participants;
  }

  addShutdownParticipant(participant: ShutdownParticipant): void {
    this.#participants.push(participant);
  }

  trackPending(delta: number): void {
    this.#pending.track(delta);
  }

  /** Resolves when no exchange is in flight or queued. */
  whenIdle(): Promise<void> {
    return this.#pending.whenIdle();
  }

  // Endpoints.

  hasEndpoint(uri: string): boolean {
    return this.#registry.has(uri);
  }

  forgetEndpoint(uri: string): Endpoint | undefined {
    this.#senders.forget(uri);
    return this.#registry.forget(uri);
  }

  endpoint(uri: `mock:${string}`): MockEndpoint;
  endpoint(uri: string): Endpoint;
  endpoint(uri: string): Endpoint {
    return this.#registry.endpoint(uri, this, this.#lifecycle.state === "started");
  }

  componentTraits(uri: string): ComponentTraits | undefined {
    return this.#registry.traits(uri);
  }

  noteEndpointUse(uri: string, where: string): void {
    this.#registry.noteUse(uri, where);
  }

  // Routes.

  addRoutes(routes: unknown): Promise<void> {
    return this.#routes.add(routes);
  }

  startRoute(routeId: string): Promise<void> {
    return this.#routes.start(routeId);
  }

  stopRoute(routeId: string, options?: StopOptions): Promise<void> {
    return this.#routes.stop(routeId, options);
  }

  removeRoute(routeId: string): Promise<void> {
    return this.#routes.remove(routeId);
  }

  describe(): ContextDescription {
    return this.#routes.describe();
  }

  routes(): RouteStatus[] {
    return this.#routes.statuses();
  }

  // Sending: new exchanges, request and send (the fast path), producer handles.

  createExchange<TBody = unknown>(init?: ExchangeInit<TBody>): Exchange<TBody> {
    return this.#sends.createExchange(init);
  }

  createExchangeUnder<TBody = unknown>(init: ExchangeInit<TBody>, source: SignalSource): Exchange<TBody> {
    return this.#sends.createExchangeUnder(init, source);
  }

  get shutdownDeadlines(): DeadlineSet {
    return this.#sends.deadlines;
  }

  requestExchange<TBody = unknown>(uri: string, init?: ExchangeInit): Promise<Exchange<TBody>> {
    return this.#sends.requestExchange<TBody>(uri, init);
  }

  request<TReply = unknown>(uri: string, body?: unknown, headers?: Headers): Promise<TReply> {
    return this.#sends.request<TReply>(uri, body, headers);
  }

  send(uri: string, body?: unknown, headers?: Headers): Promise<void> {
    return this.#sends.send(uri, body, headers);
  }

  producer(uri: string): Producer {
    return this.#sends.producer(uri, this.endpoint(uri));
  }
}

/** Creates a context; `createContext` (in the package root) hands in the DSL's part. */
export function createRoutekitContext(options: ContextOptions, wiring: ContextWiring): RouteContext {
  return new RoutekitContext(options, wiring);
}

export type { RoutekitContext };
