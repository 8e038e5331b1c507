import { RoutekitError } from "../errors/errors.js";
import type { ContextDescription } from "../model/description.js";
import type { RouteSource } from "../model/route-source.js";
import { checkStopOptions } from "./check-context-options.js";
import { describeArgument } from "./check-extension.js";
import type { ContextLifecycle } from "./context-lifecycle.js";
import type { RouteAspectHandler, RouteStatus, StopOptions } from "./context-types.js";
import { describeContext } from "./describe-routes.js";
import type { EndpointRegistry } from "./endpoint-registry.js";
import { prepareRoutes } from "./prepare-routes.js";
import type { RouteRuntime } from "./route-runtime.js";
import type { RouteTable } from "./route-table.js";
import { StopClock } from "./stop-clock.js";

/** What managing a context's routes goes through. */
export interface RouteParts {
  /** The context the routes are compiled for, with its plugins' DSL steps. */
  readonly context: Parameters<typeof prepareRoutes>[1] & { readonly name: string };
  /** What `addRoutes` takes, as a route source (the DSL's part, handed in by `createContext`). */
  readonly toRouteSource: (routes: unknown) => RouteSource | undefined;
  readonly aspects: ReadonlyMap<string, RouteAspectHandler>;
  readonly registry: EndpointRegistry;
  readonly lifecycle: ContextLifecycle;
  readonly table: RouteTable;
}

/**
 * A context's routes as its API manages them: adding (compiled, their endpoints started when the
 * context runs, all or none), starting, stopping and removing one, and describing them.
 */
export class ContextRoutes {
  readonly #parts: RouteParts;

  constructor(parts: RouteParts) {
    this.#parts = parts;
  }

  async add(routes: unknown): Promise<void> {
    const { context, registry, lifecycle, table } = this.#parts;
    const builder = this.#parts.toRouteSource(routes);
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
        context,
        (id) => table.has(id),
        () => table.nextId(),
      );
    } finally {
      // prepareRoutes is synchronous: these are the starts of the endpoints it created.
      starts = registry.takeStarts();
    }
    const added: RouteRuntime[] = [];
    try {
      for (const route of compiled) {
        table.add(route);
        added.push(route);
      }
      // Endpoints these routes created after start: a failure to start fails addRoutes.
      await Promise.all(starts);
    } catch (error) {
      for (const route of added) await this.remove(route.definition.id);
      throw error;
    }
    if (lifecycle.state === "started") {
      for (const route of compiled) if (route.definition.autoStart) await table.start(route);
    }
  }

  async start(routeId: string): Promise<void> {
    const { lifecycle, table } = this.#parts;
    const route = table.get(routeId);
    if (lifecycle.state !== "started") {
      throw new RoutekitError(
        "CONTEXT_STATE",
        `Cannot start route '${routeId}': the context is ${lifecycle.state}, not started`,
      );
    }
    await table.start(route);
  }

  async stop(routeId: string, options: StopOptions = {}): Promise<void> {
    const { table } = this.#parts;
    const route = table.get(routeId);
    await table.stop(route, new StopClock(checkStopOptions(options, "stopRoute")));
  }

  async remove(routeId: string): Promise<void> {
    await this.#parts.table.remove(routeId, new StopClock(checkStopOptions({}, "stopRoute")));
  }

  describe(): ContextDescription {
    const { context, aspects, lifecycle, table } = this.#parts;
    return describeContext({
      name: context.name,
      state: lifecycle.state,
      routes: table.values(),
      aspectHandler: (name) => aspects.get(name),
    });
  }

  statuses(): RouteStatus[] {
    return this.#parts.table.statuses();
  }
}
