import type { RouteDefinition } from "../model/route-definition.js";
import type { RouteContext } from "../runtime/context-types.js";

/** Reacts to routes carrying an aspect (e.g. `llmTool`) being added to or removed from a context. */
export interface RouteAspectHandler {
  /** Called when a route with this aspect is added; throwing rejects the whole `addRoutes` call. */
  added(context: RouteContext, route: RouteDefinition, aspect: unknown): void;
  removed?(context: RouteContext, route: RouteDefinition, aspect: unknown): void;
}

const handlers = new Map<string, RouteAspectHandler>();

/** Registers what happens when routes carrying aspect `name` come and go (one handler per aspect). */
export function defineRouteAspect(name: string, handler: RouteAspectHandler): void {
  handlers.set(name, handler);
}

/** The handlers for the aspects a route carries. */
export function aspectHandlers(route: RouteDefinition): Array<[RouteAspectHandler, unknown]> {
  const found: Array<[RouteAspectHandler, unknown]> = [];
  for (const [name, aspect] of Object.entries(route.aspects)) {
    const handler = handlers.get(name);
    if (handler !== undefined) found.push([handler, aspect]);
  }
  return found;
}
