/** Codes of every error @routekit/core raises. */
export type RoutekitErrorCode =
  | "CONTEXT_STATE"
  | "ROUTE_INVALID"
  | "URI_INVALID"
  | "COMPONENT_UNKNOWN"
  | "ENDPOINT_OPTION_INVALID"
  | "ENDPOINT_NOT_ALLOWED"
  | "NO_CONSUMER"
  | "STEP_FAILED"
  | "EXPRESSION_INVALID"
  | "EXPRESSION_FAILED"
  | "QUEUE_FULL"
  | "EXCHANGE_TIMEOUT"
  | "EXCHANGE_ABORTED"
  | "SHUTDOWN_TIMEOUT"
  | "EXCHANGE_INVALID"
  | "EXCHANGE_DROPPED"
  | "ASSERTION_FAILED"
  | "CIRCUIT_OPEN"
  | "THROTTLED"
  | "IDEMPOTENT_KEY_MISSING"
  | "PLUGIN_INVALID"
  | "ENDPOINT_START_FAILED"
  | "BUDGET_TIMEOUT"
  | "BUDGET_LIMIT_EXCEEDED"
  | "BUDGET_TASK_FAILED"
  | "BUDGET_OPTION_INVALID";

/** The one error base class of @routekit/core; `code` says what kind of failure it is. */
export class RoutekitError extends Error {
  override readonly name: string = "RoutekitError";
  readonly code: RoutekitErrorCode;

  constructor(code: RoutekitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Sent to a `direct:` (or similar) endpoint that has no consumer. */
export class NoConsumerError extends RoutekitError {
  override readonly name = "NoConsumerError";
  readonly uri: string;

  constructor(uri: string, detail = "no route consumes from it") {
    super("NO_CONSUMER", `No consumer on endpoint '${uri}': ${detail}`);
    this.uri = uri;
  }
}

/** A bad endpoint URI option: names the endpoint, the option and the nearest valid one. */
export class EndpointOptionError extends RoutekitError {
  override readonly name = "EndpointOptionError";
  readonly uri: string;
  readonly option: string;

  constructor(uri: string, option: string, message: string) {
    super("ENDPOINT_OPTION_INVALID", message);
    this.uri = uri;
    this.option = option;
  }
}

/** A step of a route failed: names the route and the step; the original error is `cause`. */
export class RouteStepError extends RoutekitError {
  override readonly name = "RouteStepError";
  readonly routeId: string;
  readonly step: string;

  constructor(routeId: string, step: string, cause: unknown) {
    super("STEP_FAILED", `Route '${routeId}' failed at step ${step}: ${messageOf(cause)}`, { cause });
    this.routeId = routeId;
    this.step = step;
  }
}

/** A malformed expression: names the expression text and the column. */
export class ExpressionError extends RoutekitError {
  override readonly name = "ExpressionError";
  readonly expression: string;
  readonly column: number | undefined;

  constructor(expression: string, message: string, column?: number, options?: { cause?: unknown }) {
    super("EXPRESSION_INVALID", message, options);
    this.expression = expression;
    this.column = column;
  }
}

/** The message of anything thrown, for composing error messages. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Anything thrown, as an Error: a thrown string or object becomes an Error with its text. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
