import type { Endpoint } from "../components/component.js";
import type { ComponentContext } from "../components/component-context.js";
import type { EndpointCheck } from "../support/endpoint-allowlist.js";
import type { StepInterceptor } from "./step-interceptor.js";

/**
 * What the compiler and the step compilers need of the context they compile a route for, beyond
 * the public API: a component's context (pending work, shutdown) and what dynamic sends need
 * (toD, recipientList). The compiler declares it and the runtime's context implements it, so the
 * compiler never imports the runtime.
 */
export interface CompileContext extends ComponentContext {
  /**
   * Records where an endpoint is used (e.g. "Route 'ask' step #1 to(llm:openai)"), so an endpoint
   * that fails to start is reported at the route and step that use it.
   */
  noteEndpointUse(uri: string, where: string): void;
  /** The step interceptors added so far, in order (the compiler wraps each step in them). */
  readonly interceptors: readonly StepInterceptor[];
  /** The context's `allowedEndpoints` for dynamic sends whose step sets none; undefined = any. */
  readonly allowedEndpoints: EndpointCheck | undefined;
  /** True when the context keeps an endpoint for exactly this URI. */
  hasEndpoint(uri: string): boolean;
  /** Stops keeping the endpoint of a URI (toD's bounded cache evicts with it); returns it, to be stopped. */
  forgetEndpoint(uri: string): Endpoint | undefined;
}
