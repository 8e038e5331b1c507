import { redactUri } from "../support/redact-uri.js";
import type { StepDefinition } from "./step-definition.js";
import type { ErrorClass, PredicateInput } from "./step-inputs.js";

export type { StepDefinition } from "./step-definition.js";
export type { ErrorClass, ExpressionInput, LogLevel, PredicateInput } from "./step-inputs.js";

/** A whole route: where it consumes from, its steps, its error handling and its aspects. */
export interface RouteDefinition {
  id: string;
  from: string;
  description: string | undefined;
  steps: StepDefinition[];
  /** Route-local error handling, recorded by `onException` / `errorHandler` on the route. */
  errorHandling: ErrorHandlingDefinition;
  /** Extra facets other packages attach (e.g. `llmTool`), keyed by aspect name. */
  aspects: Record<string, unknown>;
  autoStart: boolean;
}

/** Redelivery policy (Camel's names and defaults). */
export interface RedeliveryOptions {
  /** Redeliveries after the first attempt; 0 = none, -1 = forever. Default 0. */
  maximumRedeliveries?: number;
  /** Delay before the first redelivery in ms. Default 1000. */
  redeliveryDelay?: number;
  /** Multiplier for exponential backoff; 1 = fixed delay. Default 1 (2 when `useExponentialBackOff`). */
  backOffMultiplier?: number;
  useExponentialBackOff?: boolean;
  /** Upper bound of one delay in ms. Default 60000. */
  maximumRedeliveryDelay?: number;
  /** Keep redelivering while this predicate holds (on top of the count). */
  retryWhile?: PredicateInput;
}

/** The names of the redelivery options, shared by `onException` and `errorHandler`. */
export const REDELIVERY_OPTION_NAMES = [
  "maximumRedeliveries",
  "redeliveryDelay",
  "backOffMultiplier",
  "useExponentialBackOff",
  "maximumRedeliveryDelay",
  "retryWhile",
] as const satisfies readonly (keyof RedeliveryOptions)[];

/** One `onException` clause. */
export interface OnExceptionDefinition extends RedeliveryOptions {
  errors: ErrorClass[];
  /** Stop routing and reply to the caller without the error. */
  handled?: boolean | PredicateInput;
  /** Clear the error and carry on at the next step. */
  continued?: boolean | PredicateInput;
  /** Restore the body and headers the route received before running `step`. */
  useOriginalMessage?: boolean;
  /** Steps to run on the failed exchange (the error is visible as `${exception.message}`). */
  steps?: StepDefinition[];
  /** Only when this predicate holds. */
  onWhen?: PredicateInput;
}

/** `errorHandler(...)`: the default for errors no `onException` clause matched. */
export interface ErrorHandlerDefinition extends RedeliveryOptions {
  /** Dead letter channel: where exhausted exchanges go; then they count as handled. */
  deadLetterUri?: string;
  useOriginalMessage?: boolean;
}

/** Both scopes of error handling: clauses are matched route-local first. */
export interface ErrorHandlingDefinition {
  onException: OnExceptionDefinition[];
  errorHandler: ErrorHandlerDefinition | undefined;
}

/**
 * A short label for a step in error messages: `#3 to(mock:a)`. Option values of URIs that look
 * like credentials read `[redacted]`.
 */
export function describeStep(step: StepDefinition, index: number): string {
  const position = `#${index + 1}`;
  switch (step.type) {
    case "to":
      return `${position} to(${redactUri(step.uri)})`;
    case "toD":
      return `${position} toD(${typeof step.uri === "string" ? withoutQuery(step.uri) : "fn"}${step.raw ? ", raw" : ""})`;
    case "setHeader":
    case "setProperty":
      return `${position} ${step.type}(${step.name})`;
    case "removeHeader":
      return `${position} removeHeader(${step.name})`;
    case "process":
      return `${position} process${step.label === undefined ? "" : `(${step.label})`}`;
    case "custom":
      return `${position} ${step.name}`;
    default:
      return `${position} ${step.type}`;
  }
}

/** A URI template up to its query: option values (credentials among them) stay out of labels. */
function withoutQuery(uri: string): string {
  const question = uri.indexOf("?");
  return question === -1 ? uri : `${uri.slice(0, question)}?…`;
}
