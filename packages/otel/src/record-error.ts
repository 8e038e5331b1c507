import { type Exception, type Span, SpanStatusCode } from "@opentelemetry/api";
import { headerRedactor, redactUri } from "@routekit/core/internal";
import { SEMCONV } from "./attribute-names.js";

/**
 * A low-cardinality name for an error, for `error.type`: its `code` when it has a string one
 * (`NO_CONSUMER`, `HTTP_TIMEOUT`), else its class name; `_OTHER` for a value that is not an Error.
 */
export function errorTypeOf(error: unknown): string {
  if (!(error instanceof Error)) return "_OTHER";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code !== "" && code.length <= 64) return code;
  return error.name || error.constructor.name || "_OTHER";
}

/**
 * Marks a span failed: `error.type`, an error status with the message, and the exception event.
 * The message and stack leave the process redacted: the credentials `headers` (the failed
 * exchange's) carry, in any encoding, and those of URLs (`https://TOKEN@host`, `?api_key=`).
 */
export function recordError(span: Span, error: unknown, headers?: Readonly<Record<string, unknown>>): void {
  const redact = headers === undefined ? redactUri : headerRedactor(headers);
  span.setAttribute(SEMCONV.errorType, errorTypeOf(error));
  if (error instanceof Error) {
    const message = redact(error.message);
    const exception: Exception = { name: error.name, message };
    if (error.stack !== undefined) exception.stack = redact(error.stack);
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" || typeof code === "number") exception.code = code;
    span.recordException(exception);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: redact(String(error)) });
  }
}
