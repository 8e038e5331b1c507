import type { Observable } from "rxjs";
import {
  isObservableLike,
  OBSERVABLE_SOURCE_ASPECT,
  type ObservableLike,
  type ObservableSourceOptions,
  observableSourceUri,
} from "../components/observable-source.js";
import { RoutekitError } from "../errors/errors.js";
import type {
  ErrorClass,
  ErrorHandlerDefinition,
  ErrorHandlingDefinition,
  RouteDefinition,
} from "../model/route-definition.js";
import type { ContextSteps, RecordedRoutes, RouteSource } from "../model/route-source.js";
import { describeValue } from "../support/describe-value.js";
import { type OnExceptionOptions, onExceptionDefinition } from "./error-handling.js";
import { checkErrorHandlerOptions } from "./error-handling-options.js";
import type { RouteDsl } from "./route-dsl.js";
import { StepRecorder } from "./step-recorder.js";

/** The function form of a route builder: `context.addRoutes((r) => { r.from(...)... })`. */
export type RoutesFunction = (builder: RouteBuilder) => void;

declare module "../runtime/context-types.js" {
  interface RouteContextBase {
    /** Adds routes from a builder or a function; routes added after start start at once. */
    addRoutes(routes: RouteBuilder | RoutesFunction): Promise<void>;
  }
}

/** Error handling recorded on a builder or a route. */
function emptyErrorHandling(): ErrorHandlingDefinition {
  return { onException: [], errorHandler: undefined };
}

function emptyRoute(from: string, id = ""): RouteDefinition {
  return {
    id,
    from,
    description: undefined,
    steps: [],
    errorHandling: emptyErrorHandling(),
    aspects: {},
    autoStart: true,
  };
}

/**
 * Routes are declared in `configure()` (or a function passed to `addRoutes`). Builder-wide
 * `onException` and `errorHandler` go before the routes and apply to every route of the builder.
 */
export abstract class RouteBuilder implements RouteSource {
  #routes: RouteDefinition[] = [];
  #errorHandling: ErrorHandlingDefinition = emptyErrorHandling();
  #contextSteps: ContextSteps | undefined;

  abstract configure(): void;

  /** Starts a route consuming from `uri`; the body type parameter types the rest of the route. */
  from<TBody = unknown>(uri: string): RouteDsl<TBody>;
  /**
   * Starts a route consuming from an Observable (rxjs, or any object with `subscribe`): each value
   * is an InOnly exchange, processed one at a time in order (see `ObservableSourceOptions`).
   */
  from<TBody>(source: Observable<TBody>, options?: ObservableSourceOptions): RouteDsl<TBody>;
  from<TBody>(source: ObservableLike<TBody>, options?: ObservableSourceOptions): RouteDsl<TBody>;
  from<TBody = unknown>(
    source: string | ObservableLike<TBody>,
    options?: ObservableSourceOptions,
  ): RouteDsl<TBody> {
    let route: RouteDefinition;
    if (isObservableLike(source)) {
      route = emptyRoute(observableSourceUri(options));
      route.aspects[OBSERVABLE_SOURCE_ASPECT] = source;
    } else if (typeof source === "string" && source.trim() !== "") {
      route = emptyRoute(source);
    } else {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `from() expects an endpoint URI like 'direct:orders' or an Observable (found ${describeValue(source)})`,
      );
    }
    this.#routes.push(route);
    return new StepRecorder(route, route.steps, true, this.#contextSteps) as unknown as RouteDsl<TBody>;
  }

  /** Builder-wide exception clause: applies to every route of this builder. */
  onException(errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions): this {
    const recorder = new StepRecorder(emptyRoute("", "(builder)"), [], false, this.#contextSteps);
    this.#errorHandling.onException.push(onExceptionDefinition(recorder, errors, options));
    return this;
  }

  /** Builder-wide default error handler, e.g. a dead letter channel. */
  errorHandler(options: ErrorHandlerDefinition): this {
    this.#errorHandling.errorHandler = checkErrorHandlerOptions(
      { where: "RouteBuilder", verb: "errorHandler" },
      options,
    );
    return this;
  }

  /**
   * Runs `configure()` and returns the recorded definitions. The context passes the steps its
   * plugins add; without them (e.g. printing a builder's routes) only process-wide verbs exist.
   */
  build(steps?: ContextSteps): RecordedRoutes {
    this.#routes = [];
    this.#errorHandling = emptyErrorHandling();
    this.#contextSteps = steps;
    try {
      this.configure();
    } finally {
      this.#contextSteps = undefined;
    }
    return { routes: this.#routes, errorHandling: this.#errorHandling };
  }
}

/** Wraps the function form of `addRoutes` in a builder. */
export function routesFromFunction(routes: RoutesFunction): RouteBuilder {
  return new (class extends RouteBuilder {
    override configure(): void {
      routes(this);
    }
  })();
}

/** What `addRoutes` takes, as a route source; undefined for anything else. */
export function toRouteSource(routes: unknown): RouteSource | undefined {
  if (routes instanceof RouteBuilder) return routes;
  if (typeof routes === "function") return routesFromFunction(routes as RoutesFunction);
  return undefined;
}
