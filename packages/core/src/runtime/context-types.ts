import type { Component, Endpoint } from "../components/component.js";
import type { MockEndpoint } from "../components/mock.js";
import type { EventBus } from "./events.js";
import type { Exchange, ExchangePattern, Headers } from "../model/exchange.js";
import type { Logger } from "./logger.js";
import type { RouteBuilder, RoutesFunction } from "../dsl/route-builder.js";

/** Lifecycle of a context. */
export type ContextState = "created" | "starting" | "started" | "stopping" | "stopped";

/** A package's way to add components, DSL-backed services and lifecycle work to a context. */
export interface Plugin {
  readonly name: string;
  install(context: RouteContext): void;
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

/** What a stop hook gets: the time it may take and a signal that fires when it is up. */
export interface StopBudget {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
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

/**
 * The runtime: endpoint registry, routes, plugins, lifecycle. Packages add members here by
 * declaration merging (`@routekit/llm` adds `tools`), so code inside core implements and depends on
 * `RouteContextBase`, which no package extends: core then compiles the same whatever is installed.
 */
export interface RouteContext extends RouteContextBase {}

/** What every context has, whichever packages are loaded. */
export interface RouteContextBase {
  readonly state: ContextState;
  readonly events: EventBus;
  /** Where the context and its components write log lines (`createContext({ logger })`). */
  readonly logger: Logger;
  /** Adds routes from a builder or a function; routes added after start start at once. */
  addRoutes(routes: RouteBuilder | RoutesFunction): Promise<void>;
  /** Installs a plugin (components, services, lifecycle hooks). */
  use(plugin: Plugin): this;
  /** Registers a component under its scheme. */
  addComponent(component: Component): this;
  /** Registers work to run on start and stop. */
  addLifecycle(hook: LifecycleHook): this;
  /** A service registered by a plugin, created once per context. */
  service<T>(key: string, create: (context: RouteContext) => T): T;
  start(): Promise<void>;
  stop(options?: StopOptions): Promise<void>;
  startRoute(routeId: string): Promise<void>;
  stopRoute(routeId: string, options?: StopOptions): Promise<void>;
  removeRoute(routeId: string): Promise<void>;
  routes(): RouteStatus[];
  /** InOut: resolves with the reply body, rejects with the exchange's error. */
  request<TReply = unknown>(uri: string, body?: unknown, headers?: Headers): Promise<TReply>;
  /** InOut: resolves with the whole exchange (failed exchanges too: check `exchange.error`). */
  requestExchange<TBody = unknown>(uri: string, init?: ExchangeInit): Promise<Exchange<TBody>>;
  /** InOnly: resolves once the endpoint accepted the message. */
  send(uri: string, body?: unknown, headers?: Headers): Promise<void>;
  /** The endpoint for a URI (created once per context). `mock:` URIs give a MockEndpoint. */
  endpoint(uri: `mock:${string}`): MockEndpoint;
  endpoint(uri: string): Endpoint;
  /** Creates an exchange bound to this context. */
  createExchange<TBody = unknown>(init?: ExchangeInit<TBody>): Exchange<TBody>;
}
