import { type Span, SpanStatusCode } from "@opentelemetry/api";
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

/** Marks a span failed: `error.type`, an error status with the message, and the exception event. */
export function recordError(span: Span, error: unknown): void {
  span.setAttribute(SEMCONV.errorType, errorTypeOf(error));
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
  }
}
