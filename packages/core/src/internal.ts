// @routekit/core/internal: the engine pieces routekit's own packages share (llm, llm-tools, http,
// amqp, mcp, otel). Unstable: names and signatures here may change in any release. Users program
// against "@routekit/core"; a package of your own that needs one of these is welcome to ask for
// it to become public.

// Route model, step definitions and descriptions, option types of the verbs, codecs and the
// rest of what components and packages are built from (moved from the root, which keeps what
// a user writes code against)
export type { BudgetRunOptions } from "./budget/budget.js";
// Budget internals
export { isBudget } from "./budget/budget.js";
export type { BudgetErrorCode, TaskErrorInfo } from "./budget/budget-error.js";
export { BUDGET_DEFAULTS, type ResolvedBudgetOptions } from "./budget/budget-options.js";
export type { BudgetTaskFunction } from "./budget/budget-task.js";
export type { BudgetStats } from "./budget/worker-pool.js";
// The context a step compiler gets (CompileScope.context)
export type { CompileContext } from "./compile/compile-context.js";
export type { MessageHistoryEntry, MessageHistoryOption } from "./compile/message-history.js";
// Declaring verbs with their own step definition (defineStep is the public way): a descriptor
// (how a call records, how its step compiles, the step's shape), installed under its method name
export { type StepDescriptor, stepShape } from "./compile/step-compilers.js";
export type { RouteInfo, SendFunction, SendStep, StepInfo } from "./compile/step-interceptor.js";
export type { ConsumerRoute, RouteProcessor } from "./components/component.js";
export type { OptionSpec, OptionsOf } from "./components/endpoint-options.js";
export type {
  ObservableLike,
  ObservableSourceOptions,
  SourceObserver,
} from "./components/observable-source.js";
// Endpoint URIs
export { type ParsedUri, parseUri } from "./components/uri.js";
export type { PluginDefinition } from "./create-context.js";
export type { OnExceptionOptions } from "./dsl/error-handling.js";
export type {
  CoreVerbs,
  ExpressionOf,
  LogStepOptions,
  PredicateOf,
  Step,
  ToDynamicOptions,
} from "./dsl/route-dsl.js";
export {
  type AnyVerbDescriptor,
  type CompileScope,
  defineVerb,
  installVerbs,
  type Recorder,
  type VerbDescriptor,
} from "./dsl/verbs.js";
export type { AggregateOptions, AggregateRecoveryOptions } from "./eips/aggregation/aggregate.js";
export {
  type CompletedGroup,
  isSharedAggregationRepository,
  type SharedAggregationRepository,
  type SharedGroup,
  type SharedGroupWrite,
  type StoredExchange,
} from "./eips/aggregation/aggregation-repository.js";
export type { CompletionReason } from "./eips/aggregation/aggregator.js";
export { AGGREGATE_RECOVERY_ATTEMPTS } from "./eips/aggregation/shared-aggregator.js";
export {
  decodeStoredExchange,
  encodeStoredExchange,
  STORED_EXCHANGE_FORMAT,
} from "./eips/aggregation/stored-exchange-codec.js";
export type { MulticastOptions } from "./eips/fan-out/endpoint-fan-out.js";
export type { CircuitBreakerOptions, CircuitState } from "./eips/resilience/circuit-breaker.js";
export type { CatchClause, DoTryOptions } from "./eips/resilience/do-try.js";
export type { ErrorHandlerOptions } from "./eips/resilience/error-handler.js";
export type { IdempotentConsumerOptions } from "./eips/resilience/idempotent-consumer.js";
// The shared stores' idempotency key limit (redis, postgres)
export {
  checkMaxKeyChars,
  DEFAULT_KEY_RETENTION_MS,
  DEFAULT_MAX_KEY_CHARS,
  idempotentStoreKey,
} from "./eips/resilience/idempotent-key.js";
export {
  MemoryIdempotentRepository,
  type MemoryIdempotentRepositoryOptions,
} from "./eips/resilience/memory-idempotent-repository.js";
export type {
  ThrottleConcurrentOptions,
  ThrottleOverflowOptions,
  ThrottleRateOptions,
} from "./eips/resilience/throttle.js";
export type { ChoiceBuilder, ChoiceComplete } from "./eips/routing/choice.js";
export { DEFAULT_MAX_ITERATIONS, type LoopOptions } from "./eips/routing/loop.js";
export type { RecipientListOptions, Recipients } from "./eips/routing/recipient-list.js";
export type { SplitExpression, SplitOptions, SplitParts } from "./eips/routing/split.js";
export {
  BodyCodecError,
  type BodyCodecFailure,
  messageOf,
  printError,
  ROUTEKIT_ERROR_CODES,
  type RoutekitErrorOptions,
} from "./errors/errors.js";
// The one body codec of the transports: a body as bytes plus a content type, and back
export {
  BYTES_CONTENT_TYPE,
  type DecodeBodyOptions,
  decodeBody,
  type EncodeBodyOptions,
  type EncodedBody,
  encodeBody,
  isJsonMediaType,
  JSON_CONTENT_TYPE,
  mediaTypeOf,
  TEXT_CONTENT_TYPE,
} from "./exchange/body-codec.js";
export { EventBus, type RoutekitEventListener, type RoutekitEventType } from "./exchange/events.js";
export type { Abortable, DeadlineSet, SignalSource } from "./exchange/exchange-deadline.js";
export { abortExchange, releaseExchange, sendSettled } from "./exchange/exchange-deadline.js";
// Hearing the lines of routes' log steps with their exchange (MCP forwards them to the calling client)
export { type LogStepTap, logStepTapsOf } from "./exchange/log-step-taps.js";
export { type ConsumerFailureOutcome, reportConsumerFailure } from "./exchange/report-consumer-failure.js";
export { copyExchange } from "./exchange/runtime-exchange.js";
export { wireBodyOf } from "./exchange/wire-exchange.js";
// Caches of compiled untrusted text, bounded in entries and estimated bytes
export { BoundedCache, type CacheWeight } from "./expressions/bounded-cache.js";
// JSONPath and XPath over untrusted paths and documents (the json_path and xpath tools)
export {
  type CompiledExpression,
  type CompiledPredicate,
  checkJsonPath,
  checkUntrustedJsonPath,
  checkUntrustedXPath,
  checkXmlShape,
  checkXPathSyntax,
  compileExpression,
  compilePredicate,
  type ExpressionExchange,
  INLINE_DOCUMENT_DEFAULTS,
  type InlineDocumentLimits,
  isMultiMatchPath,
  MAX_UNTRUSTED_DESCENTS,
  MAX_XML_ATTRIBUTES,
  MAX_XML_DEPTH,
  parseXml,
  refuseDoctype,
  UNTRUSTED_XPATH_FUNCTIONS,
} from "./expressions/index.js";
export type { CheckpointQuery } from "./model/checkpoint-store.js";
export type { ComponentHeaderPrefixes, ComponentTraits } from "./model/component-traits.js";
export type {
  BlockDescription,
  EndpointUse,
  ErrorHandlingDescription,
  JsonValue,
  OnExceptionDescription,
  RouteCounters,
  RouteDescription,
  RouteEdge,
  StepDescription,
} from "./model/description.js";
export type { ExchangePattern, Processor, WireBody } from "./model/exchange.js";
export type { PropertyKeyOptions } from "./model/property-key.js";
export type {
  ErrorClass,
  ErrorHandlerDefinition,
  ExpressionInput,
  LogLevel,
  OnExceptionDefinition,
  PredicateInput,
  RedeliveryOptions,
  RouteDefinition,
} from "./model/route-definition.js";
export { describeStep } from "./model/route-definition.js";
export { type ProvidedService, provideService } from "./model/service-key.js";
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
export type { NamedEndpoint, NestedBlock, StepShape } from "./model/step-shape.js";
// Every definition of the message and resilience steps (the files hold nothing else)
export type * from "./model/steps/message-steps.js";
export type * from "./model/steps/resilience-steps.js";
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
export { STREAM_FORMAT, type StreamFormat, streamFormatOf } from "./model/stream-format.js";
export type {
  ContextState,
  ExchangeInit,
  PluginAdditions,
  RouteStatus,
  StopBudget,
  StopOptions,
} from "./runtime/context-types.js";
// Deadlines that always fire on Node 20 and can be cleared
export { createDeadline, type Deadline } from "./runtime/deadline.js";
// Exchanges under a caller's own deadline (an MCP call's), and that deadline in the context's shutdown
export { createExchangeUnder, shutdownDeadlinesOf } from "./runtime/deadline-under-caller.js";
// The selection rule of checkpoint stores' list (every store applies the same)
export { matchesQuery } from "./runtime/memory-checkpoint-store.js";
export { isTransientProperty, withoutTransientProperties } from "./runtime/property-keys.js";
export { STOP_GRACE_MS } from "./runtime/stop-clock.js";
// Bounding the nesting of JSON from outside before parsing it
export {
  checkJsonDepth,
  DEFAULT_MAX_JSON_DEPTH,
  type JsonDepthExcess,
  jsonDepthMessage,
} from "./support/check-json-depth.js";
// Declarative checks of options objects given in code, with the package's own error
export {
  type CheckedOptions,
  checkOptions,
  expectedOf,
  type OptionCheck,
  type OptionChecks,
  type OptionsSite,
  optionError,
} from "./support/check-options.js";
// Copying headers and properties (not by spread: see copy-record.ts)
export { copyRecord } from "./support/copy-record.js";
// "Did you mean" hints and echoes of input in error messages, bounded in cost and length
export {
  type DidYouMeanOptions,
  didYouMean,
  MAX_SUGGESTED_NAME_CHARS,
  MAX_SUGGESTION_CANDIDATES,
  nearestName,
} from "./support/did-you-mean.js";
export type { AllowedEndpoints, DynamicEndpointTarget } from "./support/endpoint-allowlist.js";
// Secrets under any component's header naming, in URIs and in values leaving the process
export { headerRedactor, headerSecrets, redactHeaders, redactValue } from "./support/redact-headers.js";
export { createRedactor, REDACTED, redactSecrets } from "./support/redact-secrets.js";
export { redactUri } from "./support/redact-uri.js";
export {
  declareHeaderPrefixes,
  headerBaseName,
  isSecretHeader,
  isSecretName,
} from "./support/secret-names.js";
// Option checks of the shared stores (redis, postgres)
export {
  STORE_NAME_PATTERN,
  type StoreOptionChecks,
  storeOptionChecks,
} from "./support/store-option-checks.js";
export { MESSAGE_ECHO_CHARS, truncateForMessage } from "./support/truncate-for-message.js";
