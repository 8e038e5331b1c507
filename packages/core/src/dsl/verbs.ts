import { type CompileScope, registerStep, type StepDescriptor } from "../compile/step-compilers.js";
import { RoutekitError } from "../errors/errors.js";
import type { Processor } from "../model/exchange.js";
import type { RouteDefinition, StepDefinition } from "../model/route-definition.js";
import type { ContextSteps } from "../model/route-source.js";
import type { CustomStepDefinition } from "../model/steps/message-steps.js";

export type { CompileScope, StepDescriptor } from "../compile/step-compilers.js";

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

/**
 * One DSL verb, whole: how a call is recorded (`record` turns the call's arguments into a step
 * definition, or changes the route and returns undefined) and, for a verb that records a step of
 * its own type, how that step runs (`step`: its compile function and its shape). The DSL method's
 * name is the key it is installed under (`installVerbs({ sample: sampleVerb })`); its type is a
 * declaration on `RouteDsl` in the verb's file.
 */
export interface VerbDescriptor<
  TDefinition extends StepDefinition = StepDefinition,
  TArgs extends unknown[] = never[],
> {
  record(recorder: Recorder, ...args: TArgs): TDefinition | undefined;
  readonly step?: StepDescriptor<TDefinition>;
}

/** A descriptor of any verb, as a list of verbs holds it. */
export interface AnyVerbDescriptor {
  record(recorder: Recorder, ...args: never): StepDefinition | undefined;
  readonly step?: StepDescriptor;
}

/** Defines a DSL verb's descriptor (a typed identity: nothing is installed until `installVerbs`). */
export function defineVerb<TDefinition extends StepDefinition, TArgs extends unknown[]>(
  descriptor: VerbDescriptor<TDefinition, TArgs>,
): VerbDescriptor<TDefinition, TArgs> {
  return descriptor;
}

/** Turns a verb call's arguments into a step definition (or changes the route and returns undefined). */
export type RecordFunction = (recorder: Recorder, ...args: never[]) => StepDefinition | undefined;

/**
 * The process-wide vocabulary of the DSL: every verb installed with `installVerbs` (core's own
 * from its list, other packages' when they are imported, `defineStep`'s). A verb is a
 * declaration (how a call is recorded, how its step compiles), like its type on `RouteDsl`; it
 * holds no per-context state. What a context adds of its own (components, services, interceptors,
 * a plugin's `steps`) lives in that context.
 */
const recorders = new Map<string, RecordFunction>();

/** Installs verbs under their DSL method names; a name already taken is refused. */
export function installVerbs(verbs: { readonly [name: string]: AnyVerbDescriptor }): void {
  for (const [name, verb] of Object.entries(verbs)) {
    if (recorders.has(name)) {
      throw new RoutekitError("ROUTE_INVALID", `DSL verb '${name}' is already defined`);
    }
    recorders.set(name, verb.record as unknown as RecordFunction);
    if (verb.step !== undefined) registerStep(verb.step as unknown as StepDescriptor);
  }
}

/** How a call of verb `name` is recorded, or undefined when no such verb is installed. */
export function verbRecorder(name: string): RecordFunction | undefined {
  return recorders.get(name);
}

/** The custom-step factories defined with `defineStep`, by verb name. */
const stepFactories = new Map<string, (...args: never[]) => Processor>();

/**
 * Adds a verb `.name(...args)` to the route DSL whose processor comes from `factory(...args)`.
 * Returns the factory, so the step is also a plain function usable with `.process(...)`.
 * Types come from declaration merging on `RouteDsl` in the defining package. The verb records a
 * `custom` step, whose descriptor (below) every such verb shares.
 */
export function defineStep<TArgs extends unknown[], TBody = unknown>(
  name: string,
  factory: (...args: TArgs) => Processor<TBody>,
): (...args: TArgs) => Processor<TBody> {
  stepFactories.set(name, factory as unknown as (...args: never[]) => Processor);
  installVerbs({
    [name]: defineVerb({ record: (_recorder, ...args: TArgs) => recordContextStep(name, args) }),
  });
  return factory;
}

/** Records a call of a step only one context knows (a plugin's `steps`). */
export function recordContextStep(name: string, args: unknown[]): CustomStepDefinition {
  return { type: "custom", name, args };
}

/** What the compiler needs of a context to compile a custom step. */
interface StepsOwner {
  readonly pluginSteps?: ContextSteps;
}

/** The step of every `defineStep` verb and every plugin step: runs the factory's processor. */
const customStep: StepDescriptor<CustomStepDefinition> = {
  type: "custom",
  compile(definition, scope: CompileScope) {
    const factory =
      (scope.context as StepsOwner).pluginSteps?.get(definition.name) ?? stepFactories.get(definition.name);
    if (factory === undefined) {
      throw new RoutekitError(
        "ROUTE_INVALID",
        `Route '${scope.routeId}': step '${definition.name}' is not defined`,
      );
    }
    return (factory as (...args: unknown[]) => Processor)(...definition.args);
  },
  shape: { runsUserCode: true },
};

registerStep(customStep as unknown as StepDescriptor);
