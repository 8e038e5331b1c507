/** Codes of every error @routekit/otel raises. */
export type OtelErrorCode = "OTEL_OPTION_INVALID";

/** The one error base class of @routekit/otel; `code` says what kind of failure it is. */
export class OtelError extends Error {
  override readonly name: string = "OtelError";
  readonly code: OtelErrorCode;

  constructor(code: OtelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
