import type { Processor } from "./exchange.js";
import type { ErrorHandlingDefinition, RouteDefinition } from "./route-definition.js";

/** What a route source records: its routes and the error handling that applies to all of them. */
export interface RecordedRoutes {
  routes: RouteDefinition[];
  errorHandling: ErrorHandlingDefinition;
}

/**
 * The DSL steps a context adds to the process-wide ones (declared with `defineStep`), by verb
 * name: a plugin's `steps`. Routes added to that context may use them; other contexts do not see them.
 */
export type ContextSteps = ReadonlyMap<string, (...args: never[]) => Processor>;

/**
 * Anything the context can take routes from: a `RouteBuilder` is one. The context asks it to
 * record its routes with the steps this context knows.
 */
export interface RouteSource {
  build(steps?: ContextSteps): RecordedRoutes;
}
