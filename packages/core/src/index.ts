// Verbs install themselves on the DSL when loaded.
import "./processors/index.js";

// Context and lifecycle
export { createContext, type ContextOptions } from "./context.js";
export type {
  ContextState,
  ExchangeInit,
  LifecycleHook,
  Plugin,
  RouteContext,
  RouteStatus,
  StopOptions,
} from "./context-types.js";

// Exchange and processors
export type { Exchange, ExchangePattern, Headers, Processor } from "./exchange.js";
export { copyExchange } from "./create-exchange.js";

// DSL and route definitions
export { RouteBuilder, type OnExceptionOptions, type RoutesFunction } from "./route-builder.js";
export type { ExpressionOf, LogStepOptions, PredicateOf, RouteDsl, Step } from "./route-dsl.js";
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
} from "./route-definition.js";
export { defineStep, defineVerb, type CompileScope, type Recorder } from "./verbs.js";
export { defineRouteAspect, type RouteAspectHandler } from "./route-aspects.js";

// Components and endpoints
export {
  defineComponent,
  type Component,
  type Consumer,
  type ConsumerRoute,
  type Endpoint,
  type EndpointAddress,
  type RouteProcessor,
} from "./component.js";
export type { OptionSchema, OptionSpec, OptionsOf } from "./endpoint-options.js";
export { parseUri, type ParsedUri } from "./uri.js";
export { MockEndpoint } from "./components/mock.js";

// Events, logging, errors
export { EventBus, type RoutekitEventListener, type RoutekitEvents, type RoutekitEventType } from "./events.js";
export { createConsoleLogger, type Logger } from "./logger.js";
export {
  EndpointOptionError,
  ExpressionError,
  NoConsumerError,
  RouteStepError,
  RoutekitError,
  type RoutekitErrorCode,
} from "./errors.js";
export { EXCEPTION_CAUGHT, REDELIVERED, REDELIVERY_COUNTER } from "./error-policy.js";
