import { type CompileScope, registerCompiler, type StepCompiler } from "../compile/step-compilers.js";
import { RoutekitError } from "../errors/errors.js";
import type { Processor } from "../model/exchange.js";
import type { RouteDefinition, StepDefinition } from "../model/route-definition.js";
import type { ContextSteps } from "../model/route-source.js";

export type { CompileScope } from "../compile/step-compilers.js";

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

/** Turns a verb call's arguments into a step definition (or changes the route and returns undefined). */
export type RecordFunction = (recorder: Recorder, ...args: never[]) => StepDefinition | undefined;

/**
 * The process-wide vocabulary of the DSL: every verb defined with `defineVerb` / `defineStep`.
 * A verb is a declaration (how a call is recorded, how its step compiles), like its type on
 * `RouteDsl`; it holds no per-context state. What a context adds of its own (components,
 * services, interceptors, a plugin's `steps`) lives in that context.
 */
const recorders = new Map<string, RecordFunction>();

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
  if (compile !== undefined) registerCompiler(type, compile as unknown as StepCompiler);
}

/** How a call of verb `name` is recorded, or undefined when no such verb is defined. */
export function verbRecorder(name: string): RecordFunction | undefined {
  return recorders.get(name);
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

/** Records a call of a step only one context knows (a plugin's `steps`). */
export function recordContextStep(name: string, args: unknown[]): StepDefinition {
  return { type: "custom", name, args };
}

/** What the compiler needs of a context to compile a custom step. */
interface StepsOwner {
  readonly pluginSteps?: ContextSteps;
}

registerCompiler("custom", ((definition: { name: string; args: unknown[] }, scope: CompileScope) => {
  const factory =
    (scope.context as StepsOwner).pluginSteps?.get(definition.name) ?? stepFactories.get(definition.name);
  if (factory === undefined) {
    throw new RoutekitError(
      "ROUTE_INVALID",
      `Route '${scope.routeId}': step '${definition.name}' is not defined`,
    );
  }
  return (factory as (...args: unknown[]) => Processor)(...definition.args);
}) as unknown as StepCompiler);
