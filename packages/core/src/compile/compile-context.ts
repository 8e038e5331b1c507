import type { RouteContext } from "../model/exchange.js";
import type { StepInterceptor } from "./step-interceptor.js";

/**
 * What the compiler needs of the context it compiles a route for, beyond the public API. The
 * compiler declares it and the runtime's context implements it, so the compiler never imports the
 * runtime.
 */
export interface CompileContext extends RouteContext {
  /**
   * Records where an endpoint is used (e.g. "Route 'ask' step #1 to(llm:openai)"), so an endpoint
   * that fails to start is reported at the route and step that use it.
   */
  noteEndpointUse(uri: string, where: string): void;
  /** The step interceptors added so far, in order (the compiler wraps each step in them). */
  readonly interceptors: readonly StepInterceptor[];
}
