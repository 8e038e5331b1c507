// Verbs install themselves on the DSL when loaded.
import "./eips/index.js";

// Budget: bounded evaluation of untrusted text in terminable worker threads
export { type Budget, type BudgetRunOptions, createBudget, sharedBudget } from "./budget/budget.js";
export { BudgetError, type BudgetErrorCode, type TaskErrorInfo } from "./budget/budget-error.js";
export type { BudgetOptions } from "./budget/budget-options.js";
export { type BudgetTask, type BudgetTaskFunction, defineBudgetTask } from "./budget/budget-task.js";
export type { BudgetStats } from "./budget/worker-pool.js";
export { EXCEPTION_CAUGHT, REDELIVERED, REDELIVERY_COUNTER } from "./compile/error-policy.js";
// The channel around every step: interceptors and message history
export {
  type MessageHistoryEntry,
  type MessageHistoryOption,
  messageHistoryOf,
} from "./compile/message-history.js";
export type {
  RouteInfo,
  SendFunction,
  SendStep,
  StepInfo,
  StepInterceptor,
} from "./compile/step-interceptor.js";
// Components and endpoints
export {
  type Component,
  type Consumer,
  type ConsumerRoute,
  defineComponent,
  type Endpoint,
  type EndpointAddress,
  type RouteProcessor,
} from "./components/component.js";
export type { ComponentContext, ShutdownParticipant } from "./components/component-context.js";
export type { OptionSchema, OptionSpec, OptionsOf } from "./components/endpoint-options.js";
export { MockEndpoint } from "./components/mock.js";
export type {
  ObservableLike,
  ObservableSourceOptions,
  SourceObserver,
} from "./components/observable-source.js";
// Context and lifecycle
export { createContext, definePlugin, type PluginDefinition } from "./create-context.js";
// DSL and route definitions
export type { OnExceptionOptions } from "./dsl/error-handling.js";
export { RouteBuilder, type RoutesFunction } from "./dsl/route-builder.js";
export type {
  ExpressionOf,
  LogStepOptions,
  PredicateOf,
  RouteDsl,
  Step,
  ToDynamicOptions,
} from "./dsl/route-dsl.js";
export { defineStep } from "./dsl/verbs.js";
export type { AggregateOptions, AggregateRecoveryOptions } from "./eips/aggregation/aggregate.js";
export {
  type AggregationRepository,
  type CompletedGroup,
  createMemoryAggregationRepository,
  isSharedAggregationRepository,
  type SharedAggregationRepository,
  type SharedGroup,
  type SharedGroupWrite,
  type StoredExchange,
} from "./eips/aggregation/aggregation-repository.js";
export {
  type AggregationStrategy,
  groupedBodies,
  useLatest,
} from "./eips/aggregation/aggregation-strategies.js";
export type { CompletionReason } from "./eips/aggregation/aggregator.js";
export {
  AGGREGATE_COMPLETION_ID,
  AGGREGATE_RECOVERY_ATTEMPTS,
} from "./eips/aggregation/shared-aggregator.js";
export {
  decodeStoredExchange,
  encodeStoredExchange,
  STORED_EXCHANGE_FORMAT,
} from "./eips/aggregation/stored-exchange-codec.js";
export type { MulticastOptions } from "./eips/fan-out/endpoint-fan-out.js";
export type { CircuitBreakerOptions, CircuitState } from "./eips/resilience/circuit-breaker.js";
export type { CatchClause, DoTryOptions } from "./eips/resilience/do-try.js";
// Error handling and resilience EIPs (onException, errorHandler, doTry, throttle, circuitBreaker, idempotentConsumer)
export type { ErrorHandlerOptions } from "./eips/resilience/error-handler.js";
export {
  IDEMPOTENT_DUPLICATE,
  type IdempotentConsumerOptions,
} from "./eips/resilience/idempotent-consumer.js";
export { DEFAULT_MAX_KEY_CHARS, idempotentStoreKey } from "./eips/resilience/idempotent-key.js";
export {
  createMemoryIdempotentRepository,
  type IdempotentRepository,
  MemoryIdempotentRepository,
  type MemoryIdempotentRepositoryOptions,
} from "./eips/resilience/memory-idempotent-repository.js";
export type {
  ThrottleConcurrentOptions,
  ThrottleOverflowOptions,
  ThrottleRateOptions,
} from "./eips/resilience/throttle.js";
// Routing EIPs (choice, split, aggregate, multicast, recipientList, wireTap, enrich, loop, delay)
export type { ChoiceBuilder, ChoiceComplete } from "./eips/routing/choice.js";
export { DEFAULT_MAX_ITERATIONS, type LoopOptions } from "./eips/routing/loop.js";
export type { RecipientListOptions, Recipients } from "./eips/routing/recipient-list.js";
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
export type { SplitExpression, SplitOptions, SplitParts } from "./eips/routing/split.js";
export {
  EndpointOptionError,
  ExpressionError,
  isRetryable,
  NoConsumerError,
  ROUTEKIT_ERROR_CODES,
  RoutekitError,
  type RoutekitErrorCode,
  type RoutekitErrorOptions,
  RouteStepError,
} from "./errors/errors.js";
// Events, logging, errors
export {
  EventBus,
  type RoutekitEventListener,
  type RoutekitEvents,
  type RoutekitEventType,
} from "./exchange/events.js";
// Secrets: one redaction for every error, log line and excerpt
// Exchanges: what a component that creates and sends its own exchanges needs
export { abortExchange, releaseExchange } from "./exchange/exchange-deadline.js";
export { createConsoleLogger, type Logger } from "./exchange/logger.js";
export { type ConsumerFailureOutcome, reportConsumerFailure } from "./exchange/report-consumer-failure.js";
export { copyExchange } from "./exchange/runtime-exchange.js";
export { wireBodyOf } from "./exchange/wire-exchange.js";
// Expressions: the simple language's compilers and helpers, and the JSONPath and XPath engines
// The simple language's compilers
export {
  body,
  type CompiledExpression,
  type CompiledPredicate,
  compileExpression,
  compilePredicate,
  constant,
  type ExpressionExchange,
  evaluateJsonPath,
  evaluateXPath,
  header,
  INLINE_DOCUMENT_DEFAULTS,
  type InlineDocumentLimits,
  jsonpath,
  simple,
  xpath,
} from "./expressions/index.js";
// Durable state: versioned checkpoint records with leases (durable llm runs keep their state here)
export type { CheckpointQuery, CheckpointRecord, CheckpointStore } from "./model/checkpoint-store.js";
export type { ComponentHeaderPrefixes, ComponentTraits } from "./model/component-traits.js";
// context.describe(): the routes as JSON-serialisable data
export type {
  BlockDescription,
  ContextDescription,
  EndpointUse,
  ErrorHandlingDescription,
  JsonValue,
  OnExceptionDescription,
  RouteCounters,
  RouteDescription,
  RouteEdge,
  StepDescription,
} from "./model/description.js";
export { EFFECT_KEY_HEADER } from "./model/effect-key.js";
// Exchange and processors
export type { Exchange, ExchangePattern, Headers, Processor, WireBody } from "./model/exchange.js";
export type { PropertyKey, PropertyKeyOptions } from "./model/property-key.js";
export type {
  ErrorClass,
  ErrorHandlerDefinition,
  ExpressionInput,
  LogLevel,
  OnExceptionDefinition,
  PredicateInput,
  RedeliveryOptions,
  RouteDefinition,
  StepDefinition,
} from "./model/route-definition.js";
export {
  defineServiceKey,
  type ProvidedService,
  provideService,
  type ServiceKey,
} from "./model/service-key.js";
export type {
  CatchDefinition,
  ChoiceBranch,
  ChoiceDefinition,
  CircuitBreakerDefinition,
  DoTryDefinition,
  FilterDefinition,
  LoopDefinition,
  SplitDefinition,
  StepType,
} from "./model/step-definition.js";
// The route model: every step definition, discriminated on `type`
export type {
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
} from "./model/steps/message-steps.js";
export type { IdempotentConsumerDefinition, ThrottleDefinition } from "./model/steps/resilience-steps.js";
export type {
  AggregateDefinition,
  AggregateRecoveryDefinition,
  DelayDefinition,
  EndpointFanOutSettings,
  EnrichDefinition,
  EnrichStrategy,
  MulticastDefinition,
  RecipientListDefinition,
  WireTapDefinition,
} from "./model/steps/routing-steps.js";
// A streamed body's own wire form (content type and headers an http: reply must carry)
export { STREAM_FORMAT, type StreamFormat, streamFormatOf } from "./model/stream-format.js";
export type { ContextOptions } from "./runtime/context.js";
export type {
  ContextState,
  ExchangeInit,
  LifecycleHook,
  Plugin,
  PluginAdditions,
  RouteAspectHandler,
  RouteContext,
  RouteStatus,
  StopBudget,
  StopOptions,
} from "./runtime/context-types.js";
export { createMemoryCheckpointStore } from "./runtime/memory-checkpoint-store.js";
export type { Producer } from "./runtime/producer.js";
// Exchange properties: typed keys, and which are local to this process (transient)
export {
  definePropertyKey,
  isTransientProperty,
  withoutTransientProperties,
} from "./runtime/property-keys.js";
// Which endpoints dynamic sends (toD, recipientList) may resolve
export type { AllowedEndpoints, DynamicEndpointTarget } from "./support/endpoint-allowlist.js";
// Secrets: one redaction for every error, log line and excerpt
export { createRedactor, REDACTED, redactSecrets } from "./support/redact-secrets.js";
