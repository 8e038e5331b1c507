import type { Endpoint } from "../components/component.js";
import { RoutekitError } from "../errors/errors.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { ExpressionInput, PredicateInput, StepDefinition } from "../model/route-definition.js";
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

/** Turns one step definition into its processor. */
export type StepCompiler = (definition: never, scope: CompileScope) => Processor;

const compilers = new Map<string, StepCompiler>();

/** Registers the compiler of a step type (one per type; `defineVerb` calls this). */
export function registerCompiler(type: string, compile: StepCompiler): void {
  compilers.set(type, compile);
}

/** The compiler for a step type, or a clear error naming the route and step. */
export function compilerFor(type: string, routeId: string, label: string): StepCompiler {
  const compiler = compilers.get(type);
  if (compiler === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${routeId}' step ${label}: no compiler for step type '${type}' (is the package that defines it imported?)`,
    );
  }
  return compiler;
}
