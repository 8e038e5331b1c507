import { isCoreError, RoutekitError } from "../errors/errors.js";
import type { EventBus } from "../exchange/events.js";
import { checkStopOptions } from "./check-context-options.js";
import { type ContextShutdown, createShutdown } from "./context-shutdown.js";
import type { ContextState, LifecycleHook, StopOptions } from "./context-types.js";
import type { EndpointRegistry } from "./endpoint-registry.js";
import type { RouteTable } from "./route-table.js";
import { runStopHooks, type StopTarget, stopHooksOf, stopRoutes } from "./shutdown.js";
import { StopClock } from "./stop-clock.js";

/** What starting and stopping a context goes through. */
export interface LifecycleParts {
  /** The context, as route stops wait on it. */
  readonly context: StopTarget;
  readonly events: EventBus;
  readonly registry: EndpointRegistry;
  readonly routes: RouteTable;
}

/**
 * Starting and stopping one context: its state, its lifecycle hooks (with the plugin that added
 * each, for stop errors) and its shutdown signal, made anew at each start.
 */
export class ContextLifecycle {
  #state: ContextState = "created";
  /** The shutdown signal of the current run and the deadlines of its exchanges. */
  shutdown: ContextShutdown = createShutdown();
  readonly #hooks: LifecycleHook[] = [];
  readonly #labels = new Map<LifecycleHook, string | undefined>();
  readonly #parts: LifecycleParts;

  constructor(parts: LifecycleParts) {
    this.#parts = parts;
  }

  get state(): ContextState {
    return this.#state;
  }

  /** Adds a hook run at start and stop; `label` names who added it ("plugin 'x'"), if anyone. */
  addHook(hook: LifecycleHook, label: string | undefined): void {
    this.#hooks.push(hook);
    this.#labels.set(hook, label);
  }

  /** Throws unless the context is started (`action` and `uri` say what was tried). */
  ensureStarted(action: string, uri: string): void {
    if (this.#state !== "started") {
      throw new RoutekitError(
        "CONTEXT_STATE",
        `Cannot ${action} '${uri}': the context is ${this.#state}${this.#state === "created" ? " (call context.start() first)" : ""}`,
      );
    }
  }

  /** Runs the hooks, starts the endpoints, then the routes that start automatically. */
  async start(): Promise<void> {
    if (this.#state === "started" || this.#state === "starting") return;
    if (this.#state === "stopping")
      throw new RoutekitError(
        "CONTEXT_STATE",
        "Context is stopping: wait for stop() before starting it again",
      );
    const { registry, routes, events } = this.#parts;
    this.#state = "starting";
    this.shutdown = createShutdown();
    try {
      for (const hook of this.#hooks) await hook.start?.();
      for (const [uri, endpoint] of registry.endpoints()) await registry.start(uri, endpoint);
      for (const route of routes.values()) if (route.definition.autoStart) await routes.start(route);
    } catch (error) {
      this.#state = "started";
      await this.stop({ timeoutMs: 1000 }).catch(() => undefined);
      throw error;
    }
    this.#state = "started";
    if (events.has("context-started")) events.emit("context-started", {});
  }

  /** Stops the started routes gracefully, then the endpoints and hooks, within the stop's budget. */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.#state === "stopped" || this.#state === "created") {
      this.#state = "stopped";
      return;
    }
    const { context, registry, routes, events } = this.#parts;
    const clock = new StopClock(checkStopOptions(options, "stop"));
    this.#state = "stopping";
    const started = [...routes.values()].filter((route) => route.state === "started");
    let failure: unknown;
    try {
      await stopRoutes(started, context, clock, this.shutdown.controller);
    } catch (error) {
      failure = error;
    }
    for (const route of started) routes.markStopped(route);
    const hooks = stopHooksOf(
      Array.from(registry.endpoints(), ([, endpoint]) => endpoint),
      this.#hooks,
      (hook) => this.#labels.get(hook),
    );
    const late = await runStopHooks(hooks, clock);
    this.#state = "stopped";
    if (events.has("context-stopped")) events.emit("context-stopped", {});
    if (failure === undefined && late.length > 0) {
      failure = new RoutekitError("SHUTDOWN_TIMEOUT", `Stop did not finish cleanly: ${late.join("; ")}`);
    } else if (isCoreError(failure) && late.length > 0) {
      failure = new RoutekitError("SHUTDOWN_TIMEOUT", `${failure.message}; ${late.join("; ")}`);
    }
    if (failure !== undefined) throw failure;
  }
}
