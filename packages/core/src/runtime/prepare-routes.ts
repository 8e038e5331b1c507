import { compileRoute } from "../compile/compile.js";
import { RoutekitError } from "../errors/errors.js";
import type { ErrorHandlingDefinition, RouteDefinition } from "../model/route-definition.js";
import type { ContextSteps, RouteSource } from "../model/route-source.js";
import type { ContextInternals } from "./context-internals.js";
import { RouteRuntime } from "./route-runtime.js";

function usesOriginalMessage(handling: readonly ErrorHandlingDefinition[]): boolean {
  return handling.some(
    (scope) =>
      scope.onException.some((clause) => clause.useOriginalMessage === true) ||
      scope.errorHandler?.useOriginalMessage === true,
  );
}

/** Gives every route an id (`route1`, `route2`, ... when unnamed) and refuses duplicates. */
function assignIds(
  definitions: readonly RouteDefinition[],
  taken: (id: string) => boolean,
  nextId: () => string,
): void {
  const ids = new Set<string>();
  for (const definition of definitions) {
    if (definition.id === "") {
      do definition.id = nextId();
      while (taken(definition.id) || ids.has(definition.id));
    }
    if (taken(definition.id) || ids.has(definition.id)) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route id '${definition.id}' is already used in this context: route ids must be unique`,
      );
    }
    ids.add(definition.id);
  }
}

/**
 * Builds a builder's routes and compiles every one of them, with its consumer, before the context
 * registers any: a bad route (bad URI, bad option, bad step) fails the whole batch.
 */
export function prepareRoutes(
  builder: RouteSource,
  context: ContextInternals & { readonly pluginSteps?: ContextSteps },
  taken: (id: string) => boolean,
  nextId: () => string,
): RouteRuntime[] {
  const { routes: definitions, errorHandling } = builder.build(context.pluginSteps);
  assignIds(definitions, taken, nextId);
  return definitions.map((definition) => {
    const stopHooks: Array<() => void | Promise<void>> = [];
    const { pipeline, rejection } = compileRoute(definition, errorHandling, context, stopHooks);
    context.noteEndpointUse(definition.from, `Route '${definition.id}' from(${definition.from})`);
    const endpoint = context.endpoint(definition.from);
    if (endpoint.createConsumer === undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${definition.id}': endpoint '${definition.from}' cannot be consumed from (it is producer-only)`,
      );
    }
    const keepOriginal = usesOriginalMessage([definition.errorHandling, errorHandling]);
    const route = new RouteRuntime(definition, pipeline, rejection, context, keepOriginal);
    for (const hook of stopHooks) route.onStop(hook);
    route.consumer = endpoint.createConsumer(route.process, {
      routeId: definition.id,
      reject: route.reject,
    });
    return route;
  });
}
