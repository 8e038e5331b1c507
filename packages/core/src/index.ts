// @routekit/core: what a user writes code against. Routes, the context, components, plugins,
// expressions, budgets, repositories and stores, errors, and the exchange property names routes
// read. Engine pieces routekit's own packages share are in "@routekit/core/internal".

// Verbs install themselves on the DSL when loaded.
import "./eips/index.js";

export { type Budget, createBudget, sharedBudget } from "./budget/budget.js";
export { BudgetError } from "./budget/budget-error.js";
export type { BudgetOptions } from "./budget/budget-options.js";
export { type BudgetTask, defineBudgetTask } from "./budget/budget-task.js";
export { EXCEPTION_CAUGHT, REDELIVERED, REDELIVERY_COUNTER } from "./compile/error-policy.js";
export { messageHistoryOf } from "./compile/message-history.js";
export type { StepInterceptor } from "./compile/step-interceptor.js";
export {
  type Component,
  type Consumer,
  defineComponent,
  type Endpoint,
  type EndpointAddress,
} from "./components/component.js";
export type { ComponentContext, ShutdownParticipant } from "./components/component-context.js";
export type { OptionSchema } from "./components/endpoint-options.js";
export { MockEndpoint } from "./components/mock.js";
export { createContext, definePlugin } from "./create-context.js";
export { RouteBuilder, type RoutesFunction } from "./dsl/route-builder.js";
export type { RouteDsl } from "./dsl/route-dsl.js";
export { defineStep } from "./dsl/verbs.js";
export {
  type AggregationRepository,
  createMemoryAggregationRepository,
} from "./eips/aggregation/aggregation-repository.js";
export {
  type AggregationStrategy,
  groupedBodies,
  useLatest,
} from "./eips/aggregation/aggregation-strategies.js";
export { AGGREGATE_COMPLETION_ID } from "./eips/aggregation/shared-aggregator.js";
export { IDEMPOTENT_DUPLICATE } from "./eips/resilience/idempotent-consumer.js";
export {
  createMemoryIdempotentRepository,
  type IdempotentRepository,
} from "./eips/resilience/memory-idempotent-repository.js";
export {
  AGGREGATE_COMPLETED_BY,
  AGGREGATE_CORRELATION_KEY,
  AGGREGATE_SIZE,
  LOOP_INDEX,
  LOOP_SIZE,
  SPLIT_COMPLETE,
  SPLIT_INDEX,
  SPLIT_SIZE,
} from "./eips/routing/routing-properties.js";
export {
  EndpointOptionError,
  ExpressionError,
  isRetryable,
  NoConsumerError,
  RoutekitError,
  type RoutekitErrorCode,
  RouteStepError,
} from "./errors/errors.js";
export type { RoutekitEvents } from "./exchange/events.js";
export { createConsoleLogger, type Logger } from "./exchange/logger.js";
export {
  body,
  constant,
  evaluateJsonPath,
  evaluateXPath,
  header,
  jsonpath,
  simple,
  xpath,
} from "./expressions/index.js";
export type { CheckpointRecord, CheckpointStore } from "./model/checkpoint-store.js";
export type { ContextDescription } from "./model/description.js";
export { EFFECT_KEY_HEADER } from "./model/effect-key.js";
export type { Exchange, Headers } from "./model/exchange.js";
export type { PropertyKey } from "./model/property-key.js";
export type { StepDefinition } from "./model/route-definition.js";
export { defineServiceKey, type ServiceKey } from "./model/service-key.js";
export type { ContextOptions } from "./runtime/context.js";
export type { LifecycleHook, Plugin, RouteAspectHandler, RouteContext } from "./runtime/context-types.js";
export { createMemoryCheckpointStore } from "./runtime/memory-checkpoint-store.js";
export type { Producer } from "./runtime/producer.js";
export { definePropertyKey } from "./runtime/property-keys.js";
