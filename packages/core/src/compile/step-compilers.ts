import type { Endpoint } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { ExpressionInput, PredicateInput, StepDefinition } from "../model/route-definition.js";
import type { StepShape } from "../model/step-shape.js";
import type { CompileContext } from "./compile-context.js";

/** What a step compiler gets: the route being compiled and helpers for nested blocks. */
export interface CompileScope {
  readonly context: CompileContext;
  readonly routeId: string;
  /** The label of the step being compiled, e.g. `#2 choice`. */
  readonly label: string;
  /** Compiles a nested block into one processor that runs under the route's error handling. */
  compileSteps(steps: readonly StepDefinition[], label: string): Processor;
  /** The endpoint for a URI; validated now, so a bad URI fails when the route is added. */
  endpoint(uri: string): Endpoint;
  expression<TValue = unknown>(input: ExpressionInput<TValue>): (exchange: Exchange) => TValue;
  predicate(input: PredicateInput): (exchange: Exchange) => boolean;
  /**
   * Compiles the steps after this one in the same block and takes them over: the block ends with
   * this step, which decides what runs them (e.g. `aggregate` runs them for each completed group).
   */
  restOfBlock(): Processor;
  /** Work to run when the route stops taking new work (before in-flight work is awaited). */
  onRouteStop(hook: () => void | Promise<void>): void;
}

/**
 * How one type of step runs: its compile function and its shape. A verb's descriptor carries it;
 * the compiler looks it up by the definition's `type` and holds the compile function to the shape
 * (a step that takes the rest of its block must compile it, and a block it compiles must be one
 * its shape declares).
 */
export interface StepDescriptor<TDefinition extends StepDefinition = StepDefinition> {
  readonly type: TDefinition["type"];
  /** Turns one step definition into its processor. */
  compile(definition: TDefinition, scope: CompileScope): Processor;
  readonly shape: StepShape<TDefinition>;
}

const descriptors = new Map<string, StepDescriptor>();

/** Registers how a step type runs (one per type; installing a verb that records one calls this). */
export function registerStep(descriptor: StepDescriptor): void {
  descriptors.set(descriptor.type, descriptor);
}

/** The shape of a step type, or undefined for a type no installed verb compiles. */
export function stepShape(type: string): StepShape | undefined {
  return descriptors.get(type)?.shape;
}

/** How a step type runs, or a clear error naming the route and step. */
export function stepDescriptorFor(type: string, routeId: string, label: string): StepDescriptor {
  const descriptor = descriptors.get(type);
  if (descriptor === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${routeId}' step ${label}: no compiler for step type '${type}' (is the package that defines it imported?)`,
    );
  }
  return descriptor;
}
