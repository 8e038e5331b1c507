import { RoutekitError } from "../errors/errors.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { RouteDefinition, StepDefinition } from "../model/route-definition.js";
import { describeValue } from "../support/describe-value.js";

/** What an interceptor learns about a step when its route is compiled: plain data. */
export interface StepInfo {
  /** The route the step belongs to. */
  readonly routeId: string;
  /**
   * The step's place in the route, nested blocks included, as error messages and step events
   * name it: `#2 choice when #1 > #1 to(mock:a)`.
   */
  readonly path: string;
  /** The step alone, without its enclosing blocks: `#1 to(mock:a)`. */
  readonly label: string;
  /** 0-based position of the step in its block. */
  readonly index: number;
  /** The step as the builder recorded it. */
  readonly definition: StepDefinition;
}

/** What an interceptor learns about a route when it is added: plain data. */
export interface RouteInfo {
  readonly routeId: string;
  /** The URI the route consumes from, as written in `from(...)`. */
  readonly from: string;
  /** The route as the builder recorded it. */
  readonly definition: RouteDefinition;
}

/**
 * Cross-cutting work around every step of every route (tracing, breakpoints, a debugger, a dev
 * console), registered with `context.addInterceptor`. `wrapStep` is called once per step when a
 * route is added, never per message: it returns the processor to run in the step's place —
 * usually one that does something and calls `next(exchange)` — or `next` itself to stay out of
 * the way. What the returned processor throws, rejects with or leaves on `exchange.error` is the
 * step's failure, handled by the route's error handling like the step's own.
 */
export interface StepInterceptor {
  /** Names the interceptor in errors (e.g. when `wrapStep` throws). */
  readonly name: string;
  wrapStep(step: StepInfo, next: Processor): Processor;
  /**
   * Optional: wraps a whole route, called once when the route is added. `next` runs the route's
   * steps and its error handling for one exchange; the returned processor runs in its place each
   * time an exchange enters the route (what the route's error handling left is on
   * `exchange.error` when `next` is done), e.g. to make a tracing span current while the route
   * runs. A route without such interceptors runs its pipeline directly.
   */
  wrapRoute?(route: RouteInfo, next: Processor): Processor;
  /**
   * Optional: wraps the sends to endpoints not known when the route is built: those user code
   * makes through the context — `context.send`, `context.request`, `context.requestExchange` and
   * the handles of `context.producer(uri)`, where `step` is undefined and `send` hands a new
   * exchange to the endpoint — and those of the steps that pick their endpoints per message,
   * `toD` and each recipient of `recipientList`, where `step` names the step and `send` hands
   * the route's exchange (a recipient's copy) to the endpoint. The sends of the other steps (`to`,
   * `wireTap`, `multicast`, ...) are `wrapStep`'s. Called once per URI, not per message (per URI
   * and step for a step's sends; again for an endpoint the step created anew): `send` settles when
   * the endpoint is done with the exchange (a failure may be on `exchange.error` then); the
   * returned function runs in its place, e.g. to put trace context into the headers, or is `send`
   * itself to stay out of the way. The first interceptor added is outermost. Producer handles made
   * before an interceptor was added keep sending without it; `context.send` and the others use it
   * from then on.
   */
  wrapSend?(uri: string, send: SendFunction, step?: SendStep): SendFunction;
}

/** What `wrapSend` wraps and returns: hands an exchange to one endpoint. */
export type SendFunction = (exchange: Exchange) => void | Promise<void>;

/** The step a send wrapped by `wrapSend` belongs to (`toD`, `recipientList`), as `StepInfo` names it. */
export type SendStep = Pick<StepInfo, "routeId" | "path">;

/** Checks what `addInterceptor` received: an object with a `name` and a `wrapStep` function. */
export function checkInterceptor(value: unknown): StepInterceptor {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addInterceptor() expects an interceptor { name: string, wrapStep(step, next) }, found ${describeValue(value)}`,
    );
  }
  const candidate = value as Partial<Record<keyof StepInterceptor, unknown>>;
  if (typeof candidate.name !== "string" || candidate.name === "") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addInterceptor() expects a non-empty string 'name', found ${describeValue(candidate.name)}`,
    );
  }
  if (typeof candidate.wrapStep !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addInterceptor(): interceptor '${candidate.name}' needs a function wrapStep(step, next), found ${describeValue(candidate.wrapStep)}`,
    );
  }
  if (candidate.wrapRoute !== undefined && typeof candidate.wrapRoute !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addInterceptor(): interceptor '${candidate.name}' has a wrapRoute that is not a function (found ${describeValue(candidate.wrapRoute)})`,
    );
  }
  if (candidate.wrapSend !== undefined && typeof candidate.wrapSend !== "function") {
    throw new RoutekitError(
      "PLUGIN_INVALID",
      `addInterceptor(): interceptor '${candidate.name}' has a wrapSend that is not a function (found ${describeValue(candidate.wrapSend)})`,
    );
  }
  return value as StepInterceptor;
}

/**
 * The send to `uri` (made by `step`, when a step makes it) wrapped in the interceptors that have
 * `wrapSend`, the first one outermost; `send` itself when none has. A `wrapSend` that throws or
 * returns something other than a function fails the send naming the interceptor and the URI.
 */
export function interceptSend(
  interceptors: readonly StepInterceptor[],
  uri: string,
  send: SendFunction,
  step?: SendStep,
): SendFunction {
  let wrapped = send;
  for (let position = interceptors.length - 1; position >= 0; position--) {
    const interceptor = interceptors[position]!;
    if (interceptor.wrapSend === undefined) continue;
    let result: unknown;
    try {
      result = interceptor.wrapSend(uri, wrapped, step);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Send to '${uri}': interceptor '${interceptor.name}' failed in wrapSend: ${message}`,
        { cause: error },
      );
    }
    if (typeof result !== "function") {
      throw new RoutekitError(
        "PLUGIN_INVALID",
        `Send to '${uri}': interceptor '${interceptor.name}' wrapSend must return a function (exchange) => void | Promise<void>, found ${describeValue(result)}`,
      );
    }
    wrapped = result as SendFunction;
  }
  return wrapped;
}

/**
 * Wraps one step's processor in the interceptors, the first one outermost (it runs first and sees
 * the others and the step inside its `next`). A `wrapStep` that throws or returns something other
 * than a function fails the route naming the interceptor, the route and the step.
 */
export function interceptStep(
  interceptors: readonly StepInterceptor[],
  step: StepInfo,
  processor: Processor,
): Processor {
  let wrapped = processor;
  for (let position = interceptors.length - 1; position >= 0; position--) {
    const interceptor = interceptors[position]!;
    let result: unknown;
    try {
      result = interceptor.wrapStep(step, wrapped);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${step.routeId}' step ${step.path}: interceptor '${interceptor.name}' failed in wrapStep: ${message}`,
        { cause: error },
      );
    }
    if (typeof result !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${step.routeId}' step ${step.path}: interceptor '${interceptor.name}' wrapStep must return a processor (exchange) => void | Promise<void>, found ${describeValue(result)}`,
      );
    }
    wrapped = result as Processor;
  }
  return wrapped;
}

/**
 * Wraps a route's pipeline in the interceptors that have `wrapRoute`, the first one outermost;
 * the pipeline itself when none has. A `wrapRoute` that throws or returns something other than a
 * function fails the route naming the interceptor and the route.
 */
export function interceptRoute(
  interceptors: readonly StepInterceptor[],
  definition: RouteDefinition,
  pipeline: Processor,
): Processor {
  let wrapped = pipeline;
  for (let position = interceptors.length - 1; position >= 0; position--) {
    const interceptor = interceptors[position]!;
    if (interceptor.wrapRoute === undefined) continue;
    let result: unknown;
    try {
      result = interceptor.wrapRoute({ routeId: definition.id, from: definition.from, definition }, wrapped);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${definition.id}': interceptor '${interceptor.name}' failed in wrapRoute: ${message}`,
        { cause: error },
      );
    }
    if (typeof result !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${definition.id}': interceptor '${interceptor.name}' wrapRoute must return a processor (exchange) => void | Promise<void>, found ${describeValue(result)}`,
      );
    }
    wrapped = result as Processor;
  }
  return wrapped;
}
