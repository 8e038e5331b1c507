import { RoutekitError } from "../errors/errors.js";
import type { EventBus } from "../exchange/events.js";
import type { RouteContext } from "../model/exchange.js";
import type { RouteDefinition } from "../model/route-definition.js";
import { didYouMean } from "../support/did-you-mean.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import type { ContextInternals } from "./context-internals.js";
import type { RouteAspectHandler, RouteStatus } from "./context-types.js";
import type { RouteRuntime } from "./route-runtime.js";
import { type StopTarget, stopRoutes } from "./shutdown.js";
import type { StopClock } from "./stop-clock.js";

/**
 * The routes of one context, by id: adding and removing them (with their aspects' handlers),
 * starting and stopping one route, and the route lifecycle events. The context decides when;
 * this table does it and keeps the ids unique.
 */
export class RouteTable {
  readonly #routes = new Map<string, RouteRuntime>();
  readonly #context: ContextInternals & StopTarget;
  readonly #aspects: ReadonlyMap<string, RouteAspectHandler>;
  #counter = 0;

  constructor(context: ContextInternals & StopTarget, aspects: ReadonlyMap<string, RouteAspectHandler>) {
    this.#context = context;
    this.#aspects = aspects;
  }

  get #events(): EventBus {
    return this.#context.events;
  }

  has(routeId: string): boolean {
    return this.#routes.has(routeId);
  }

  /** The id of the next route that has none: route1, route2, … */
  nextId(): string {
    return `route${++this.#counter}`;
  }

  values(): IterableIterator<RouteRuntime> {
    return this.#routes.values();
  }

  /** The route `routeId`; an unknown id fails with the nearest known one and the list of ids. */
  get(routeId: string): RouteRuntime {
    const route = this.#routes.get(routeId);
    if (route === undefined) {
      const known = [...this.#routes.keys()];
      throw new RoutekitError(
        "ROUTE_INVALID",
        `No route with id '${truncateForMessage(routeId)}'${didYouMean(routeId, known)}; routes: ${known.join(", ") || "(none)"}`,
      );
    }
    return route;
  }

  /** Adds a compiled route: its aspects' handlers run first, and may refuse it by throwing. */
  add(route: RouteRuntime): void {
    for (const [handler, aspect] of this.#aspectsOf(route.definition))
      handler.added(this.#context as RouteContext, route.definition, aspect);
    this.#routes.set(route.definition.id, route);
    if (this.#events.has("route-added")) this.#events.emit("route-added", { routeId: route.definition.id });
  }

  /** Stops (if started, within `clock`) and removes route `routeId`, telling its aspects' handlers. */
  async remove(routeId: string, clock: StopClock): Promise<void> {
    const route = this.get(routeId);
    await this.stop(route, clock);
    this.#routes.delete(routeId);
    for (const [handler, aspect] of this.#aspectsOf(route.definition))
      handler.removed?.(this.#context as RouteContext, route.definition, aspect);
    if (this.#events.has("route-removed")) this.#events.emit("route-removed", { routeId });
  }

  async start(route: RouteRuntime): Promise<void> {
    if (route.state === "started") return;
    await route.consumer?.start();
    route.state = "started";
    if (this.#events.has("route-started"))
      this.#events.emit("route-started", { routeId: route.definition.id });
  }

  /** Stops one route within `clock`; a stopped route is left alone. */
  async stop(route: RouteRuntime, clock: StopClock): Promise<void> {
    if (route.state !== "started") return;
    await stopRoutes([route], this.#context, clock, undefined);
    this.markStopped(route);
  }

  /** Records that `route` stopped (the context's stop stops all routes at once). */
  markStopped(route: RouteRuntime): void {
    route.state = "stopped";
    if (this.#events.has("route-stopped"))
      this.#events.emit("route-stopped", { routeId: route.definition.id });
  }

  statuses(): RouteStatus[] {
    return [...this.#routes.values()].map((route) => ({
      id: route.definition.id,
      from: route.definition.from,
      description: route.definition.description,
      state: route.state,
      inflight: route.inflight,
    }));
  }

  /** The handlers this context has for the aspects a route carries. */
  #aspectsOf(route: RouteDefinition): Array<[RouteAspectHandler, unknown]> {
    const found: Array<[RouteAspectHandler, unknown]> = [];
    for (const [name, aspect] of Object.entries(route.aspects)) {
      const handler = this.#aspects.get(name);
      if (handler === undefined) {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `Route '${route.id}' carries aspect '${name}', but no plugin of this context handles it (install the plugin of the package that defines it)`,
        );
      }
      found.push([handler, aspect]);
    }
    return found;
  }
}
