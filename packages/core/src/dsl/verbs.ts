import type { Endpoint } from "../components/component.js";
import type { RouteContext } from "../runtime/context-types.js";
import { RoutekitError } from "../errors/errors.js";
import type { Exchange, Processor } from "../model/exchange.js";
import type { ExpressionInput, PredicateInput, RouteDefinition, StepDefinition } from "../model/route-definition.js";

/** What a step compiler gets: the route being compiled and helpers for nested blocks. */
export interface CompileScope {
  readonly context: RouteContext;
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

/** Records nested blocks while a verb is being recorded. */
export interface Recorder {
  /** Runs a block callback on a fresh builder and returns the steps it recorded. */
  block(callback: (route: never) => unknown): StepDefinition[];
  /** The route definition being recorded. */
  readonly route: RouteDefinition;
  /** How many steps the current block holds so far. */
  readonly position: number;
  /** True for the route itself, false inside a nested block. */
  readonly isRoot: boolean;
}

type StepCompiler = (definition: never, scope: CompileScope) => Processor;
type RecordFunction = (recorder: Recorder, ...args: never[]) => StepDefinition | undefined;

const compilers = new Map<string, StepCompiler>();
const recorders = new Map<string, RecordFunction>();
const installers: Array<(name: string, record: RecordFunction) => void> = [];

/**
 * Defines a DSL verb: `record` turns the call's arguments into a step definition (or mutates the
 * route and returns undefined), `compile` turns the definition into a processor. One file per verb.
 */
export function defineVerb<TDefinition extends StepDefinition, TArgs extends unknown[]>(
  name: string,
  record: (recorder: Recorder, ...args: TArgs) => TDefinition | undefined,
  compile?: (definition: TDefinition, scope: CompileScope) => Processor,
  type: string = name,
): void {
  if (recorders.has(name)) {
    throw new RoutekitError("ROUTE_INVALID", `DSL verb '${name}' is already defined`);
  }
  recorders.set(name, record as unknown as RecordFunction);
  if (compile !== undefined) compilers.set(type, compile as unknown as StepCompiler);
  for (const install of installers) install(name, record as unknown as RecordFunction);
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

/** The custom-step factories defined with `defineStep`, by verb name. */
const stepFactories = new Map<string, (...args: never[]) => Processor>();

/**
 * Adds a verb `.name(...args)` to the route DSL whose processor comes from `factory(...args)`.
 * Returns the factory, so the step is also a plain function usable with `.process(...)`.
 * Types come from declaration merging on `RouteDsl` in the defining package.
 */
export function defineStep<TArgs extends unknown[], TBody = unknown>(
  name: string,
  factory: (...args: TArgs) => Processor<TBody>,
): (...args: TArgs) => Processor<TBody> {
  stepFactories.set(name, factory as unknown as (...args: never[]) => Processor);
  defineVerb(name, (_recorder, ...args: TArgs) => ({ type: "custom", name, args }));
  return factory;
}

compilers.set("custom", ((definition: { name: string; args: unknown[] }, scope: CompileScope) => {
  const factory = stepFactories.get(definition.name);
  if (factory === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${scope.routeId}': step '${definition.name}' is not defined`,
    );
  }
  return (factory as (...args: unknown[]) => Processor)(...definition.args);
}) as unknown as StepCompiler);

/** Lets the DSL implementation pick up every verb, including those defined later. */
export function onVerbDefined(install: (name: string, record: RecordFunction) => void): void {
  installers.push(install);
  for (const [name, record] of recorders) install(name, record);
}
