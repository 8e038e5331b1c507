import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/otel raises. */
export type OtelErrorCode = "OTEL_OPTION_INVALID";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<OtelErrorCode>(["OTEL_OPTION_INVALID"]);

/** The one error base class of @routekit/otel; `code` says what kind of failure it is. */
export class OtelError extends RoutekitError<OtelErrorCode> {
  override readonly name: string = "OtelError";

  constructor(code: OtelErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}
