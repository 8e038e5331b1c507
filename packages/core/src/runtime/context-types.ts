import type { StepInterceptor } from "../compile/step-interceptor.js";
import type { Component, Endpoint, StopBudget } from "../components/component.js";

export type { StopBudget } from "../components/component.js";
export type { RouteAspectHandler } from "../model/route-aspect.js";
export type { ProvidedService } from "../model/service-key.js";

import type { MockEndpoint } from "../components/mock.js";
import type { EventBus } from "../exchange/events.js";
import type { Logger } from "../exchange/logger.js";
import type { ComponentTraits } from "../model/component-traits.js";
import type { ContextDescription } from "../model/description.js";
import type {
  Exchange,
  ExchangePattern,
  Headers,
  Processor,
  RouteContext,
  WireBody,
} from "../model/exchange.js";
import type { RouteAspectHandler } from "../model/route-aspect.js";
import type { ProvidedService, ServiceKey } from "../model/service-key.js";
import type { Producer } from "./producer.js";

/** Lifecycle of a context. */
export type ContextState = "created" | "starting" | "started" | "stopping" | "stopped";

/**
 * What a plugin adds to one context: what its `setup` returns. Every field is optional.
 */
export interface PluginAdditions {
  /** Components whose schemes the context gets (e.g. `http:`). */
  readonly components?: readonly Component[];
  /**
   * DSL verbs only this context knows, by name: `.name(...args)` records a step whose processor
   * is `factory(...args)` (types still come from declaration merging on `RouteDsl`). Verbs every
   * context knows are declared with `defineStep`.
   */
  readonly verbs?: Readonly<Record<string, (...args: never[]) => Processor>>;
  /** Step interceptors, in order (see `addInterceptor`). */
  readonly interceptors?: readonly StepInterceptor[];
  /** Values of typed services in this context (`provideService(key, value)`), read with `context.service(key)`. */
  readonly services?: readonly ProvidedService[];
  /**
   * Properties added to this context, created on first read and kept (e.g. `context.tools`);
   * their types come from declaration merging on `RouteContext`.
   */
  readonly properties?: Readonly<Record<string, (context: RouteContext) => unknown>>;
  /** What happens when routes carrying an aspect (e.g. `llmTool`) are added or removed, by aspect name. */
  readonly aspects?: Readonly<Record<string, RouteAspectHandler>>;
  /** Work to run when the context starts and stops. */
  readonly lifecycle?: LifecycleHook | readonly LifecycleHook[];
}

/**
 * What a package adds to a context: `context.use(plugin)` installs it in that context only (two
 * contexts with different plugins never see each other's additions). `definePlugin` makes one
 * whose `setup` returns what it adds. The same additions may also be declared as fields of the
 * plugin object (`steps` for `verbs`), and `install` runs last, for anything they do not cover:
 * the form plugins had before `definePlugin`, still accepted.
 */
export interface Plugin extends Omit<PluginAdditions, "verbs" | "services"> {
  /** Names the plugin in errors and log lines (e.g. a lifecycle hook that fails). */
  readonly name: string;
  /** Runs once in each context the plugin is installed in; returns what it adds there. */
  setup?(context: RouteContext): PluginAdditions | undefined;
  /** The object form's `verbs`. */
  readonly steps?: PluginAdditions["verbs"];
  /** Runs after everything else is installed (the object form). */
  install?(context: RouteContext): void;
}

/** Work a plugin needs to run when the context starts (after routes are added) and stops (after routes stop). */
export interface LifecycleHook {
  start?(): void | Promise<void>;
  /**
   * Runs when the context stops, after the routes. It gets the time left of the stop and a
   * signal that fires when that time is up: past it, the context stops waiting for the hook, so a
   * hook that cannot finish cleanly must give up then (e.g. destroy its sockets).
   */
  stop?(budget: StopBudget): void | Promise<void>;
}

/** Options of `context.stop`. */
export interface StopOptions {
  /**
   * How long in-flight and queued exchanges may take to finish before they are aborted
   * (default 45000). `stop` itself settles within `timeoutMs` plus `STOP_GRACE_MS` (2000):
   * that grace lets aborted work end and stop hooks close connections.
   */
  timeoutMs?: number;
}

/** What `requestExchange` and `send` take. */
export interface ExchangeInit<TBody = unknown> {
  body?: TBody;
  /**
   * The body in the form it arrived in (bytes, their content type and how to read them), instead
   * of `body`: it is decoded by the body's first read, and a producer can send the bytes on as
   * they are while nothing read or replaced the body (`wireBodyOf`). For consumers.
   */
  wire?: WireBody;
  headers?: Headers;
  properties?: Record<string, unknown>;
  pattern?: ExchangePattern;
  /** Abort the exchange when this signal fires (in addition to context shutdown). */
  signal?: AbortSignal;
  /** Abort the exchange after this many milliseconds. */
  timeoutMs?: number;
}

/** A running route as the context sees it. */
export interface RouteStatus {
  readonly id: string;
  readonly from: string;
  readonly description: string | undefined;
  readonly state: "stopped" | "started";
  readonly inflight: number;
}

declare module "../model/exchange.js" {
  /**
   * The runtime: endpoint registry, routes, plugins, lifecycle. Packages add members here by
   * declaration merging (`@routekit/llm` adds `tools`), so code inside core implements and depends on
   * `RouteContextBase`, which no package extends: core then compiles the same whatever is installed.
   */
  interface RouteContext extends RouteContextBase {}
}

export type { RouteContext } from "../model/exchange.js";

/** What every context has, whichever packages are loaded. */
export interface RouteContextBase {
  readonly state: ContextState;
  readonly events: EventBus;
  /** Where the context and its components write log lines (`createContext({ logger })`). */
  readonly logger: Logger;
  /** Installs a plugin: what it declares (components, steps, properties, aspects, interceptors, lifecycle) in this context. */
  use(plugin: Plugin): this;
  /** Registers a component under its scheme (the same as `use({ name, components: [component] })`). */
  addComponent(component: Component): this;
  /** Registers work to run on start and stop (the same as `use({ name, lifecycle: hook })`). */
  addLifecycle(hook: LifecycleHook): this;
  /**
   * Adds a step interceptor: its `wrapStep` wraps every step of the routes added from now on (in
   * the order interceptors were added, the first outermost). Routes added before keep running
   * without it, so add interceptors before `addRoutes`.
   */
  addInterceptor(interceptor: StepInterceptor): this;
  /**
   * The context's service under a typed key (`defineServiceKey`), created by the key's `create` on
   * first use and kept.
   */
  service<T>(key: ServiceKey<T>): T;
  /** A per-context service under a string key, created by `create` on first use and kept. */
  service<T>(key: string, create: (context: RouteContext) => T): T;
  start(): Promise<void>;
  stop(options?: StopOptions): Promise<void>;
  startRoute(routeId: string): Promise<void>;
  stopRoute(routeId: string, options?: StopOptions): Promise<void>;
  removeRoute(routeId: string): Promise<void>;
  routes(): RouteStatus[];
  /**
   * Every route as JSON-serialisable data: steps with their options and nested blocks, endpoints,
   * aspects (a tool's schemas), live counters, and the edges between routes.
   */
  describe(): ContextDescription;
  /** InOut: resolves with the reply body, rejects with the exchange's error. */
  request<TReply = unknown>(uri: string, body?: unknown, headers?: Headers): Promise<TReply>;
  /** InOut: resolves with the whole exchange (failed exchanges too: check `exchange.error`). */
  requestExchange<TBody = unknown>(uri: string, init?: ExchangeInit): Promise<Exchange<TBody>>;
  /** InOnly: resolves once the endpoint accepted the message. */
  send(uri: string, body?: unknown, headers?: Headers): Promise<void>;
  /** The endpoint for a URI (created once per context). `mock:` URIs give a MockEndpoint. */
  endpoint(uri: `mock:${string}`): MockEndpoint;
  endpoint(uri: string): Endpoint;
  /**
   * What the component of `uri` declares about its endpoints (`Component.traits`), without making
   * the endpoint: `{ inProcess: false }` when it declares nothing, undefined when no component
   * has the URI's scheme.
   */
  componentTraits(uri: string): ComponentTraits | undefined;
  /**
   * A handle on `uri` for repeated sends: the endpoint is resolved (and the URI checked) once,
   * here, so each `request` / `send` on it skips the lookup. Throws for a bad URI.
   */
  producer(uri: string): Producer;
  /** Creates an exchange bound to this context. */
  createExchange<TBody = unknown>(init?: ExchangeInit<TBody>): Exchange<TBody>;
}
