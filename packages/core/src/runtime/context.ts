// Step interceptors and message history (the channel, compile/): added by the channel work.
import {
  checkMessageHistory,
  type MessageHistoryOption,
  messageHistoryInterceptor,
} from "../compile/message-history.js";
import { checkInterceptor, type StepInterceptor } from "../compile/step-interceptor.js";
import type { Component, Endpoint } from "../components/component.js";
import { directComponent } from "../components/direct.js";
import { logComponent } from "../components/log.js";
import { type MockEndpoint, mockComponent } from "../components/mock.js";
import { sedaComponent } from "../components/seda.js";
import { timerComponent } from "../components/timer.js";
import { RoutekitError } from "../errors/errors.js";
import type { ContextDescription } from "../model/description.js";
import type { Exchange, ExchangePattern, Headers, Processor } from "../model/exchange.js";
import type { LogLevel } from "../model/route-definition.js";
import type { RouteSource } from "../model/route-source.js";
import { copyRecord } from "../support/copy-record.js";
import { checkExchangeDeadline, checkStopOptions } from "./check-context-options.js";
import { checkPlugin, describeArgument } from "./check-extension.js";
import type { ContextInternals, ContextInternalsBase, ShutdownParticipant } from "./context-internals.js";
import { createShutdown, releasedAfter } from "./context-shutdown.js";
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
import { RuntimeExchange, releaseExchange } from "./create-exchange.js";
import { describeContext } from "./describe-routes.js";
import { EndpointRegistry } from "./endpoint-registry.js";
import { EventBus } from "./events.js";
import { ExchangeDeadline } from "./exchange-deadline.js";
import { dispatch, requestOn, sendOn } from "./exchange-dispatch.js";
import { installPlugin } from "./install-plugin.js";
import { createConsoleLogger, type Logger } from "./logger.js";
import { prepareRoutes } from "./prepare-routes.js";
import { createProducer, type Producer } from "./producer.js";
import type { RouteRuntime } from "./route-runtime.js";
import { RouteTable } from "./route-table.js";
import { Senders } from "./senders.js";
import { runStopHooks, stopHooksOf, stopRoutes } from "./shutdown.js";
import { StopClock } from "./stop-clock.js";

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
}

/** What the context needs of the DSL, handed in by `createContext` (the runtime never imports the DSL). */
export interface ContextWiring {
  /** What `addRoutes` takes, as a route source; undefined for anything else. */
  toRouteSource(routes: unknown): RouteSource | undefined;
  /** Plugins every new context installs before any other (see `defineDefaultPlugin`). */
  defaultPlugins: readonly Plugin[];
}

// Members that packages merge into RouteContext (such as `tools`) are installed on each context by
// a plugin's `properties`: this interface tells the compiler so, whichever packages are loaded,
// while `implements ContextInternalsBase` still checks the members the class defines itself.
// biome-ignore lint/correctness/noUnusedVariables: merged with the class below
interface RoutekitContext extends ContextInternals {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
class RoutekitContext implements ContextInternalsBase {
  readonly name: string;
  readonly events = new EventBus();
  readonly logger: Logger;
  #state: ContextState = "created";
  readonly #registry = new EndpointRegistry();
  readonly #lifecycle: LifecycleHook[] = [];
  readonly #services = new Map<string, unknown>();
  readonly #participants: ShutdownParticipant[] = [];
  readonly #lifecycleLabels = new Map<LifecycleHook, string | undefined>();
  #installing: string | undefined;
  #shutdown = createShutdown();
  #pending = 0;
  #idle: Array<() => void> = [];
  /** Step interceptors in the order added; the compiler reads them when routes are added. */
  readonly #interceptors: StepInterceptor[] = [];
  /** What the context's own sends go to, per URI (wrapped by interceptors' `wrapSend`). */
  readonly #senders = new Senders((uri) => this.endpoint(uri), this.#interceptors);
  readonly #wiring: ContextWiring;
  readonly #aspects = new Map<string, RouteAspectHandler>();
  readonly #routes = new RouteTable(this, this.#aspects);
  readonly #steps = new Map<string, (...args: never[]) => Processor>();

  constructor(options: ContextOptions, wiring: ContextWiring) {
    this.name = options.name ?? "routekit";
    this.logger = options.logger ?? createConsoleLogger(options.logLevel);
    this.#wiring = wiring;
    const historyEntries = checkMessageHistory(options.messageHistory);
    if (historyEntries > 0) this.addInterceptor(messageHistoryInterceptor(historyEntries));
    for (const component of [directComponent, sedaComponent, timerComponent, logComponent, mockComponent]) {
      this.addComponent(component as unknown as Component);
    }
    for (const plugin of wiring.defaultPlugins) this.use(plugin);
  }

  /** The DSL steps this context's plugins added (the compiler reads them). */
  get pluginSteps(): ReadonlyMap<string, (...args: never[]) => Processor> {
    return this.#steps;
  }

  /** The handler of aspect `name` in this context, if a plugin installed one. */
  aspectHandler(name: string): RouteAspectHandler | undefined {
    return this.#aspects.get(name);
  }

  get state(): ContextState {
    return this.#state;
  }

  get shutdownSignal(): AbortSignal {
    return this.#shutdown.controller.signal;
  }

  get participants(): readonly ShutdownParticipant[] {
    return this.#participants;
  }

  addShutdownParticipant(participant: ShutdownParticipant): void {
    this.#participants.push(participant);
  }

  trackPending(delta: number): void {
    this.#pending += delta;
    if (this.#pending === 0 && this.#idle.length > 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves when no exchange is in flight or queued. */
  whenIdle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  addInterceptor(interceptor: StepInterceptor): this {
    this.#interceptors.push(checkInterceptor(interceptor));
    this.#senders.interceptorAdded(interceptor);
    return this;
  }

  get interceptors(): readonly StepInterceptor[] {
    return this.#interceptors;
  }

  use(plugin: Plugin): this {
    checkPlugin(plugin);
    this.#installing = plugin.name;
    try {
      installPlugin(
        {
          context: this,
          steps: this.#steps,
          aspects: this.#aspects,
          addComponent: (component) => this.addComponent(component),
          addLifecycle: (hook) => this.addLifecycle(hook),
          addInterceptor: (interceptor) => this.addInterceptor(interceptor),
        },
        plugin,
      );
    } finally {
      this.#installing = undefined;
    }
    return this;
  }

  addComponent(component: Component): this {
    this.#registry.addComponent(component);
    return this;
  }

  addLifecycle(hook: LifecycleHook): this {
    this.#lifecycle.push(hook);
    this.#lifecycleLabels.set(
      hook,
      this.#installing === undefined ? undefined : `plugin '${this.#installing}'`,
    );
    return this;
  }

  service<T>(key: string, create: (context: RouteContext) => T): T {
    if (this.#services.has(key)) return this.#services.get(key) as T;
    const value = create(this);
    this.#services.set(key, value);
    return value;
  }

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
    return this.#registry.endpoint(uri, this, this.#state === "started");
  }

  noteEndpointUse(uri: string, where: string): void {
    this.#registry.noteUse(uri, where);
  }

  async addRoutes(routes: unknown): Promise<void> {
    const builder = this.#wiring.toRouteSource(routes);
    if (builder === undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `addRoutes() expects a RouteBuilder or a function (r) => {...} (found ${describeArgument(routes)})`,
      );
    }
    let compiled: RouteRuntime[];
    let starts: Promise<void>[];
    try {
      compiled = prepareRoutes(
        builder,
        this,
        (id) => this.#routes.has(id),
        () => this.#routes.nextId(),
      );
    } finally {
      // prepareRoutes is synchronous: these are the starts of the endpoints it created.
      starts = this.#registry.takeStarts();
    }
    const added: RouteRuntime[] = [];
    try {
      for (const route of compiled) {
        this.#routes.add(route);
        added.push(route);
      }
      // Endpoints these routes created after start: a failure to start fails addRoutes.
      await Promise.all(starts);
    } catch (error) {
      for (const route of added) await this.removeRoute(route.definition.id);
      throw error;
    }
    if (this.#state === "started") {
      for (const route of compiled) if (route.definition.autoStart) await this.#routes.start(route);
    }
  }

  async start(): Promise<void> {
    if (this.#state === "started" || this.#state === "starting") return;
    if (this.#state === "stopping")
      throw new RoutekitError(
        "CONTEXT_STATE",
        "Context is stopping: wait for stop() before starting it again",
      );
    this.#state = "starting";
    this.#shutdown = createShutdown();
    try {
      for (const hook of this.#lifecycle) await hook.start?.();
      for (const [uri, endpoint] of this.#registry.endpoints()) await this.#registry.start(uri, endpoint);
      for (const route of this.#routes.values())
        if (route.definition.autoStart) await this.#routes.start(route);
    } catch (error) {
      this.#state = "started";
      await this.stop({ timeoutMs: 1000 }).catch(() => undefined);
      throw error;
    }
    this.#state = "started";
    if (this.events.has("context-started")) this.events.emit("context-started", {});
  }

  async stop(options: StopOptions = {}): Promise<void> {
    if (this.#state === "stopped" || this.#state === "created") {
      this.#state = "stopped";
      return;
    }
    const clock = new StopClock(checkStopOptions(options, "stop"));
    this.#state = "stopping";
    const started = [...this.#routes.values()].filter((route) => route.state === "started");
    let failure: unknown;
    try {
      await stopRoutes(started, this, clock, this.#shutdown.controller);
    } catch (error) {
      failure = error;
    }
    for (const route of started) this.#routes.markStopped(route);
    const hooks = stopHooksOf(
      Array.from(this.#registry.endpoints(), ([, endpoint]) => endpoint),
      this.#lifecycle,
      (hook) => this.#lifecycleLabels.get(hook),
    );
    const late = await runStopHooks(hooks, clock);
    this.#state = "stopped";
    if (this.events.has("context-stopped")) this.events.emit("context-stopped", {});
    if (failure === undefined && late.length > 0) {
      failure = new RoutekitError("SHUTDOWN_TIMEOUT", `Stop did not finish cleanly: ${late.join("; ")}`);
    } else if (failure instanceof RoutekitError && late.length > 0) {
      failure = new RoutekitError("SHUTDOWN_TIMEOUT", `${failure.message}; ${late.join("; ")}`);
    }
    if (failure !== undefined) throw failure;
  }

  async startRoute(routeId: string): Promise<void> {
    const route = this.#routes.get(routeId);
    if (this.#state !== "started") {
      throw new RoutekitError(
        "CONTEXT_STATE",
        `Cannot start route '${routeId}': the context is ${this.#state}, not started`,
      );
    }
    await this.#routes.start(route);
  }

  async stopRoute(routeId: string, options: StopOptions = {}): Promise<void> {
    const route = this.#routes.get(routeId);
    await this.#routes.stop(route, new StopClock(checkStopOptions(options, "stopRoute")));
  }

  async removeRoute(routeId: string): Promise<void> {
    await this.#routes.remove(routeId, new StopClock(checkStopOptions({}, "stopRoute")));
  }

  describe(): ContextDescription {
    return describeContext({
      name: this.name,
      state: this.#state,
      routes: this.#routes.values(),
      aspectHandler: (name) => this.#aspects.get(name),
    });
  }

  routes(): RouteStatus[] {
    return this.#routes.statuses();
  }

  createExchange<TBody = unknown>(init: ExchangeInit<TBody> = {}): Exchange<TBody> {
    const shutdown = this.#shutdown.controller.signal;
    const timeoutMs = init.timeoutMs;
    checkExchangeDeadline(init);
    // The shutdown signal is never combined with itself.
    const caller = init.signal === shutdown ? undefined : init.signal;
    let deadline: ExchangeDeadline | undefined;
    if (timeoutMs !== undefined || caller !== undefined) {
      deadline = new ExchangeDeadline(this.#shutdown.deadlines, timeoutMs, caller);
      if (shutdown.aborted) deadline.abort(shutdown.reason);
    }
    const exchange = new RuntimeExchange(
      this,
      deadline ?? shutdown,
      init.body as TBody,
      init.headers === undefined ? undefined : copyRecord(init.headers),
      init.properties === undefined ? undefined : copyRecord(init.properties),
      init.pattern ?? "InOnly",
    );
    exchange.deadline = deadline;
    return exchange;
  }

  #ensureStarted(action: string, uri: string): void {
    if (this.#state !== "started") {
      throw new RoutekitError(
        "CONTEXT_STATE",
        `Cannot ${action} '${uri}': the context is ${this.#state}${this.#state === "created" ? " (call context.start() first)" : ""}`,
      );
    }
  }

  /**
   * Sends a new exchange to `uri` (InOut unless `init` says otherwise); the promise settles when
   * the endpoint is done with it.
   */
  #dispatch(uri: string, init: ExchangeInit): Exchange | Promise<Exchange> {
    this.#ensureStarted("send to", uri);
    const endpoint = this.#senders.of(uri);
    const exchange = this.createExchange(init) as RuntimeExchange;
    if (init.pattern === undefined) exchange.pattern = "InOut";
    const result = dispatch(endpoint, exchange);
    // The route releases the deadline when it finishes the exchange; this covers the other
    // paths (no consumer, a producer endpoint, a failed send).
    if (!(result instanceof Promise)) releaseExchange(exchange);
    else if (exchange.deadline !== undefined) return result.then(releasedAfter);
    return result;
  }

  requestExchange<TBody = unknown>(uri: string, init: ExchangeInit = {}): Promise<Exchange<TBody>> {
    try {
      const exchange = this.#dispatch(uri, init);
      return (exchange instanceof Promise ? exchange : Promise.resolve(exchange)) as Promise<Exchange<TBody>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // request, send and producer: the fast path (no options object, no deadline, the endpoint of
  // the last URI kept), shared with the producer handles (runtime/producer.ts).
  request<TReply = unknown>(uri: string, body?: unknown, headers?: Headers): Promise<TReply> {
    try {
      this.#ensureStarted("send to", uri);
      return requestOn<TReply>(this.#senders.of(uri), this.#exchangeOf(body, headers, "InOut"));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  send(uri: string, body?: unknown, headers?: Headers): Promise<void> {
    try {
      this.#ensureStarted("send to", uri);
      const exchange = this.#exchangeOf(body, headers, "InOnly");
      exchange.handedOver = true;
      return sendOn(this.#senders.of(uri), exchange);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  producer(uri: string): Producer {
    const endpoint = this.endpoint(uri);
    return createProducer(uri, this.#senders.for(uri, endpoint), {
      exchange: (body, headers, pattern) => {
        this.#ensureStarted("send to", uri);
        return this.#exchangeOf(body, headers, pattern);
      },
    });
  }

  /** A new exchange for request/send: the caller's headers copied, no deadline of its own. */
  #exchangeOf(body: unknown, headers: Headers | undefined, pattern: ExchangePattern): RuntimeExchange {
    return new RuntimeExchange(
      this,
      this.#shutdown.controller.signal,
      body,
      headers === undefined ? undefined : copyRecord(headers),
      undefined,
      pattern,
    );
  }
}

/** Creates a context; `createContext` (in the package root) hands in the DSL's part. */
export function createRoutekitContext(options: ContextOptions, wiring: ContextWiring): RouteContext {
  return new RoutekitContext(options, wiring);
}

export type { RoutekitContext };
