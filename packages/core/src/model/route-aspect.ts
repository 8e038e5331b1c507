import type { RouteContext } from "./exchange.js";
import type { RouteDefinition } from "./route-definition.js";

/** Reacts to routes carrying an aspect (e.g. `llmTool`) being added to or removed from a context. */
export interface RouteAspectHandler {
  /** Called when a route with this aspect is added; throwing rejects the whole `addRoutes` call. */
  added(context: RouteContext, route: RouteDefinition, aspect: unknown): void;
  removed?(context: RouteContext, route: RouteDefinition, aspect: unknown): void;
  /** The aspect as JSON-serialisable data, for `context.describe()` (e.g. a tool's schemas). */
  describe?(aspect: unknown): unknown;
}
