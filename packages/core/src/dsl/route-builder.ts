import { RoutekitError } from "../errors/errors.js";
import { firstPartySteps } from "../support/first-party.js";
import {
  checkErrorHandlerOptions,
  checkOnExceptionOptions,
} from "../processors/resilience/error-handling-options.js";
import type {
  ErrorClass,
  ErrorHandlerDefinition,
  ErrorHandlingDefinition,
  OnExceptionDefinition,
  RouteDefinition,
  StepDefinition,
} from "../model/route-definition.js";
import type { RouteDsl } from "./route-dsl.js";
import { onVerbDefined, type Recorder } from "./verbs.js";

/** The function form of a route builder: `context.addRoutes((r) => { r.from(...)... })`. */
export type RoutesFunction = (builder: RouteBuilder) => void;

/** Builder-wide error handling options of `onException`. */
export type OnExceptionOptions = Omit<OnExceptionDefinition, "errors" | "steps"> & {
  /** Steps to run on the failed exchange. */
  step?: (route: RouteDsl<unknown>) => unknown;
};

/**
 * The DSL implementation: records steps into one block of a route definition.
 * Verbs are installed on its prototype by `defineVerb`, one file each.
 */
export class StepRecorder implements Recorder {
  readonly route: RouteDefinition;
  readonly steps: StepDefinition[];
  readonly isRoot: boolean;

  constructor(route: RouteDefinition, steps: StepDefinition[], isRoot: boolean) {
    this.route = route;
    this.steps = steps;
    this.isRoot = isRoot;
  }

  get position(): number {
    return this.steps.length;
  }

  block(callback: (route: never) => unknown): StepDefinition[] {
    if (typeof callback !== "function") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${this.route.id}': expected a block callback like (route) => route.to("mock:x"), found ${typeof callback}`,
      );
    }
    const steps: StepDefinition[] = [];
    callback(new StepRecorder(this.route, steps, false) as never);
    return steps;
  }
}

// Until its package is imported, a first-party verb fails naming the package to import (the
// package's own definition replaces this one when it loads).
for (const [name, packageName] of firstPartySteps()) {
  Object.defineProperty(StepRecorder.prototype, name, {
    configurable: true,
    writable: true,
    value(this: StepRecorder) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${this.route.id || this.route.from}': the DSL step ${name}() comes from ${packageName}; install it and import it once (import "${packageName}") before building routes`,
      );
    },
  });
}

onVerbDefined((name, record) => {
  Object.defineProperty(StepRecorder.prototype, name, {
    configurable: true,
    writable: true,
    value(this: StepRecorder, ...args: never[]) {
      const step = record(this, ...args);
      if (step !== undefined) this.steps.push(step);
      return this;
    },
  });
});

/** Error handling recorded on a builder or a route. */
function emptyErrorHandling(): ErrorHandlingDefinition {
  return { onException: [], errorHandler: undefined };
}

/** True for `Error` and its subclasses. */
export function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && (value === Error || value.prototype instanceof Error);
}

function describeValue(value: unknown): string {
  if (typeof value === "function") return `function ${value.name || "(anonymous)"} (not an Error class)`;
  return value === null ? "null" : `${typeof value} ${String(value)}`;
}

/**
 * Turns onException arguments into a clause definition, validating them; shared by the
 * builder-wide and route-local forms. `where` names the caller in errors (`Route 'orders'`).
 */
export function onExceptionDefinition(
  recorder: { block(callback: (route: never) => unknown): StepDefinition[] },
  errors: ErrorClass | ErrorClass[],
  options: OnExceptionOptions = {},
  where = "RouteBuilder",
): OnExceptionDefinition {
  const list = Array.isArray(errors) ? errors : [errors];
  const notAClass = list.find((error) => !isErrorClass(error));
  if (list.length === 0 || notAClass !== undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `${where}: onException() expects an Error class or a non-empty array of Error classes ` +
        `(e.g. onException(TypeError, {...})), found ${list.length === 0 ? "an empty array" : describeValue(notAClass)}`,
    );
  }
  const { step, ...rest } = checkOnExceptionOptions({ where, verb: "onException" }, options);
  return {
    ...rest,
    errors: list,
    steps: step === undefined ? undefined : recorder.block(step as (route: never) => unknown),
  };
}

/**
 * Routes are declared in `configure()` (or a function passed to `addRoutes`). Builder-wide
 * `onException` and `errorHandler` go before the routes and apply to every route of the builder.
 */
export abstract class RouteBuilder {
  #routes: RouteDefinition[] = [];
  #errorHandling: ErrorHandlingDefinition = emptyErrorHandling();

  abstract configure(): void;

  /** Starts a route consuming from `uri`; the body type parameter types the rest of the route. */
  from<TBody = unknown>(uri: string): RouteDsl<TBody> {
    if (typeof uri !== "string" || uri.trim() === "") {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `from() expects an endpoint URI like 'direct:orders' (found ${JSON.stringify(uri)})`,
      );
    }
    const route: RouteDefinition = {
      id: "",
      from: uri,
      description: undefined,
      steps: [],
      errorHandling: emptyErrorHandling(),
      aspects: {},
      autoStart: true,
    };
    this.#routes.push(route);
    return new StepRecorder(route, route.steps, true) as unknown as RouteDsl<TBody>;
  }

  /** Builder-wide exception clause: applies to every route of this builder. */
  onException(errors: ErrorClass | ErrorClass[], options?: OnExceptionOptions): this {
    const recorder = new StepRecorder(
      {
        id: "(builder)",
        from: "",
        description: undefined,
        steps: [],
        errorHandling: emptyErrorHandling(),
        aspects: {},
        autoStart: true,
      },
      [],
      false,
    );
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

  /** Runs `configure()` once and returns the recorded definitions (used by the context). */
  build(): { routes: RouteDefinition[]; errorHandling: ErrorHandlingDefinition } {
    this.#routes = [];
    this.#errorHandling = emptyErrorHandling();
    this.configure();
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
