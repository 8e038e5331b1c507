import type { AggregationStrategy, ErrorClass, ExpressionInput, PredicateInput } from "./step-inputs.js";
import type {
  CustomStepDefinition,
  LogDefinition,
  ProcessDefinition,
  RemoveHeaderDefinition,
  SetBodyDefinition,
  SetHeaderDefinition,
  SetPropertyDefinition,
  StopDefinition,
  ToDefinition,
  ToDynamicDefinition,
  TransformDefinition,
} from "./steps/message-steps.js";
import type { IdempotentConsumerDefinition, ThrottleDefinition } from "./steps/resilience-steps.js";
import type {
  AggregateDefinition,
  DelayDefinition,
  EnrichDefinition,
  MulticastDefinition,
  RecipientListDefinition,
  WireTapDefinition,
} from "./steps/routing-steps.js";

/**
 * Every step definition by its `type`. A verb's file that records a step of its own adds it here
 * by declaration merging (`declare module ".../model/step-definition.js" { interface
 * StepDefinitions { sample: SampleDefinition } }`), so the union below grows with the verb and
 * nothing else lists it.
 */
export interface StepDefinitions {
  process: ProcessDefinition;
  to: ToDefinition;
  toD: ToDynamicDefinition;
  setBody: SetBodyDefinition;
  transform: TransformDefinition;
  setHeader: SetHeaderDefinition;
  removeHeader: RemoveHeaderDefinition;
  setProperty: SetPropertyDefinition;
  log: LogDefinition;
  stop: StopDefinition;
  custom: CustomStepDefinition;
  filter: FilterDefinition;
  choice: ChoiceDefinition;
  split: SplitDefinition;
  loop: LoopDefinition;
  doTry: DoTryDefinition;
  circuitBreaker: CircuitBreakerDefinition;
  aggregate: AggregateDefinition;
  multicast: MulticastDefinition;
  recipientList: RecipientListDefinition;
  wireTap: WireTapDefinition;
  enrich: EnrichDefinition;
  delay: DelayDefinition;
  throttle: ThrottleDefinition;
  idempotentConsumer: IdempotentConsumerDefinition;
}

/**
 * One step of a route, as recorded by the DSL: plain data discriminated on `type`, printable,
 * diffable and compilable. Every core step is a member; a step another package defines with
 * `defineStep` is a `custom` step. The steps that hold nested blocks are declared here, next to
 * the union they refer to; the others are in `steps/` or in their verb's file.
 */
export type StepDefinition = StepDefinitions[keyof StepDefinitions];

/** The `type` of every step definition. */
export type StepType = StepDefinition["type"];

/**
 * `filter(predicate)`: only matching exchanges continue. Without a block (`steps` undefined) it
 * guards the rest of its block.
 */
export interface FilterDefinition {
  readonly type: "filter";
  readonly predicate: PredicateInput;
  readonly steps: StepDefinition[] | undefined;
}

/** One `when(predicate, step)` of a choice. */
export interface ChoiceBranch {
  readonly predicate: PredicateInput;
  readonly steps: StepDefinition[];
}

/** `choice((c) => c.when(...).otherwise(...))`: the first branch whose predicate holds runs. */
export interface ChoiceDefinition {
  readonly type: "choice";
  readonly branches: ChoiceBranch[];
  readonly otherwise: StepDefinition[] | undefined;
}

/** `split(expression, step, options)`: runs `steps` on a copy of the exchange per part. */
export interface SplitDefinition {
  readonly type: "split";
  readonly expression: ExpressionInput;
  readonly steps: StepDefinition[];
  /** Parts in flight at once (1 = one after the other). */
  readonly parallel: number;
  readonly stopOnError: boolean;
  readonly aggregate: AggregationStrategy | undefined;
}

/** `loop(countOrPredicate, step, options)`: repeats `steps` on the same exchange. */
export interface LoopDefinition {
  readonly type: "loop";
  readonly condition: number | ExpressionInput;
  readonly steps: StepDefinition[];
  readonly maxIterations: number;
}

/** One catch clause of a doTry. */
export interface CatchDefinition {
  readonly errors: readonly ErrorClass[];
  readonly steps: StepDefinition[];
}

/** `doTry(step, { catch, finally })`. */
export interface DoTryDefinition {
  readonly type: "doTry";
  readonly steps: StepDefinition[];
  readonly catches: readonly CatchDefinition[];
  readonly finally: StepDefinition[] | undefined;
}

/** `circuitBreaker(step, options)`. */
export interface CircuitBreakerDefinition {
  readonly type: "circuitBreaker";
  readonly steps: StepDefinition[];
  readonly failureThreshold: number;
  readonly resetTimeout: number;
  readonly fallback: StepDefinition[] | undefined;
}
