import { RoutekitError } from "../errors/errors.js";
import type { RouteDefinition, StepDefinition } from "../model/route-definition.js";
import type { ContextSteps } from "../model/route-source.js";
import { firstPartyStepPackage } from "../support/first-party.js";
import { type Recorder, recordContextStep, verbRecorder } from "./verbs.js";

/**
 * The DSL implementation: records steps into one block of a route definition. Its verbs are
 * looked up when called — the process-wide vocabulary (`defineVerb`, `defineStep`), then the
 * steps of the context the routes are added to — so no class is ever patched and a context's
 * plugin steps stay in that context.
 */
export class StepRecorder implements Recorder {
  readonly route: RouteDefinition;
  readonly steps: StepDefinition[];
  readonly isRoot: boolean;
  readonly contextSteps: ContextSteps | undefined;

  constructor(
    route: RouteDefinition,
    steps: StepDefinition[],
    isRoot: boolean,
    contextSteps: ContextSteps | undefined,
  ) {
    this.route = route;
    this.steps = steps;
    this.isRoot = isRoot;
    this.contextSteps = contextSteps;
    // biome-ignore lint/correctness/noConstructorReturn: the DSL object is this recorder behind a verb lookup
    return new Proxy(this, verbLookup);
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
    callback(new StepRecorder(this.route, steps, false, this.contextSteps) as never);
    return steps;
  }

  /** The function a verb call runs, or undefined when `name` is no verb here. */
  verb(name: string, self: StepRecorder): ((...args: never[]) => StepRecorder) | undefined {
    const record = verbRecorder(name);
    if (record !== undefined) {
      return (...args: never[]) => {
        const step = record(self, ...args);
        if (step !== undefined) this.steps.push(step);
        return self;
      };
    }
    if (this.contextSteps?.has(name) === true) {
      return (...args: never[]) => {
        this.steps.push(recordContextStep(name, args));
        return self;
      };
    }
    const packageName = firstPartyStepPackage(name);
    if (packageName === undefined) return undefined;
    // Until its package is imported, a first-party verb fails naming the package to import.
    return () => {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${this.route.id || this.route.from}': the DSL step ${name}() comes from ${packageName}; install it and import it once (import "${packageName}") before building routes`,
      );
    };
  }
}

const verbLookup: ProxyHandler<StepRecorder> = {
  get(target, property, receiver) {
    if (typeof property === "symbol" || property in target) return Reflect.get(target, property, receiver);
    return target.verb(property, receiver as StepRecorder);
  },
};
