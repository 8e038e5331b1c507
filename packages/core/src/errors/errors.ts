/** Every code of `RoutekitErrorCode`, for checks at run time. */
export const ROUTEKIT_ERROR_CODES = [
  "CONTEXT_STATE",
  "ROUTE_INVALID",
  "URI_INVALID",
  "COMPONENT_UNKNOWN",
  "ENDPOINT_OPTION_INVALID",
  "ENDPOINT_NOT_ALLOWED",
  "NO_CONSUMER",
  "STEP_FAILED",
  "EXPRESSION_INVALID",
  "EXPRESSION_FAILED",
  "QUEUE_FULL",
  "EXCHANGE_TIMEOUT",
  "EXCHANGE_ABORTED",
  "SHUTDOWN_TIMEOUT",
  "EXCHANGE_INVALID",
  "EXCHANGE_DROPPED",
  "ASSERTION_FAILED",
  "CIRCUIT_OPEN",
  "THROTTLED",
  "IDEMPOTENT_KEY_MISSING",
  "PLUGIN_INVALID",
  "ENDPOINT_START_FAILED",
  "BUDGET_TIMEOUT",
  "BUDGET_LIMIT_EXCEEDED",
  "BUDGET_TASK_FAILED",
  "BUDGET_OPTION_INVALID",
  "BODY_ENCODE_FAILED",
  "BODY_DECODE_FAILED",
] as const;

/** Codes of every error @routekit/core raises. */
export type RoutekitErrorCode = (typeof ROUTEKIT_ERROR_CODES)[number];

const CORE_CODES: ReadonlySet<string> = new Set(ROUTEKIT_ERROR_CODES);

/** Codes of @routekit/core whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<RoutekitErrorCode>([
  "ROUTE_INVALID",
  "URI_INVALID",
  "COMPONENT_UNKNOWN",
  "ENDPOINT_OPTION_INVALID",
  "EXPRESSION_INVALID",
  "EXCHANGE_INVALID",
  "EXCHANGE_DROPPED",
  "IDEMPOTENT_KEY_MISSING",
  "PLUGIN_INVALID",
  "BUDGET_LIMIT_EXCEEDED",
  "BUDGET_OPTION_INVALID",
  "BODY_ENCODE_FAILED",
  "BODY_DECODE_FAILED",
]);

/** Options of a `RoutekitError`: what caused it, and whether trying again may succeed. */
export interface RoutekitErrorOptions {
  cause?: unknown;
  /** Default: false for core's codes of invalid input, configuration and stored data; true otherwise. */
  retryable?: boolean;
}

/**
 * The error base class of routekit: @routekit/core's errors, and the root error of every routekit
 * package (`AmqpError`, `RedisStoreError`, `LlmError` ...), each with its own `code` list.
 * `retryable` says whether the same message may succeed when tried again: false for invalid
 * input, options, configuration, stored data that cannot be read or written, and codec errors,
 * which the default redelivery does not retry (see `isRetryable`).
 */
export class RoutekitError<TCode extends string = RoutekitErrorCode> extends Error {
  override readonly name: string = "RoutekitError";
  readonly code: TCode;
  readonly retryable: boolean;

  constructor(code: TCode, message: string, options?: RoutekitErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options?.retryable ?? !PERMANENT_CODES.has(code);
  }

  /** The error as routekit prints it, in one line with its code and causes: see `printError`. */
  override toString(): string {
    return printError(this);
  }
}

/** Causes `printError` follows at most, and the characters it prints at most. */
const PRINTED_CAUSES = 8;
const PRINTED_CHARS = 4_000;

/**
 * How routekit prints an error, in one line: `Name [CODE]: message` (the code where the error has
 * a string `code`, as Node prints its own errors), then each cause as
 * `; caused by Name [CODE]: message`, at most 8 causes (a cycle stops the chain) and 4,000
 * characters (then `… (N chars)`). Anything thrown that is not an Error prints as `String(value)`.
 * `RoutekitError#toString()` is this, so `String(error)` and `${error}` print it.
 */
export function printError(error: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  let current: unknown = error;
  while (parts.length <= PRINTED_CAUSES && current !== undefined && !seen.has(current)) {
    seen.add(current);
    parts.push(headlineOf(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = parts.join("; caused by ");
  return text.length <= PRINTED_CHARS ? text : `${text.slice(0, PRINTED_CHARS)}… (${text.length} chars)`;
}

/** `Name [CODE]: message` of one error, without its causes. */
function headlineOf(error: unknown): string {
  if (!(error instanceof Error)) return printable(error);
  const code = (error as { code?: unknown }).code;
  const name = typeof code === "string" && code !== "" ? `${error.name} [${code}]` : error.name;
  return error.message === "" ? name : `${name}: ${error.message}`;
}

function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "(unprintable value)";
  }
}

/**
 * Whether trying `error` again may succeed: the `retryable` of the error, else of its `cause`,
 * and so on (the first boolean `retryable` found decides, on any error, routekit's or not);
 * true when none says.
 */
export function isRetryable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 32 && typeof current === "object" && current !== null; depth++) {
    const retryable = (current as { retryable?: unknown }).retryable;
    if (typeof retryable === "boolean") return retryable;
    current = (current as { cause?: unknown }).cause;
  }
  return true;
}

/** An error of @routekit/core itself (a package's root error is a `RoutekitError` too, with its own codes). */
export function isCoreError(error: unknown): error is RoutekitError<RoutekitErrorCode> {
  return error instanceof RoutekitError && CORE_CODES.has(error.code);
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
    super("STEP_FAILED", `Route '${routeId}' failed at step ${step}: ${messageOf(cause)}`, {
      cause,
      retryable: isRetryable(cause),
    });
    this.routeId = routeId;
    this.step = step;
  }
}

/** A malformed expression: names the expression text and the column. */
export class ExpressionError extends RoutekitError {
  override readonly name = "ExpressionError";
  readonly expression: string;
  readonly column: number | undefined;

  constructor(expression: string, message: string, column?: number, options?: RoutekitErrorOptions) {
    super("EXPRESSION_INVALID", message, options);
    this.expression = expression;
    this.column = column;
  }
}

/**
 * Why the body codec (`encodeBody`, `decodeBody`) refused a body: `json-failed` (JSON.stringify
 * threw, e.g. a cycle or a BigInt), `no-json-form` (a function, symbol or undefined),
 * `json-invalid` (a JSON content type over text that does not parse), `json-too-deep` (nested
 * past the limit), `charset-unknown` (a text type in a charset the codec does not read).
 */
export type BodyCodecFailure =
  | "json-failed"
  | "no-json-form"
  | "json-invalid"
  | "json-too-deep"
  | "charset-unknown";

/**
 * A body the codec could not encode or decode. `detail` is the part a transport quotes in a
 * message of its own (the parser's error, the depth found, the charset); `contentType` is the
 * content type decoded (cut to 120 characters), undefined when encoding.
 */
export class BodyCodecError extends RoutekitError<"BODY_ENCODE_FAILED" | "BODY_DECODE_FAILED"> {
  override readonly name = "BodyCodecError";
  readonly reason: BodyCodecFailure;
  readonly detail: string;
  readonly contentType: string | undefined;

  constructor(
    reason: BodyCodecFailure,
    message: string,
    detail: string,
    options?: { cause?: unknown; contentType?: string },
  ) {
    const encoding = reason === "json-failed" || reason === "no-json-form";
    super(encoding ? "BODY_ENCODE_FAILED" : "BODY_DECODE_FAILED", message, { cause: options?.cause });
    this.reason = reason;
    this.detail = detail;
    this.contentType = options?.contentType;
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
