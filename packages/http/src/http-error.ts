import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/http raises. */
export type HttpErrorCode =
  | "HTTP_OPTION_INVALID"
  | "HTTP_ROUTE_CONFLICT"
  | "HTTP_SERVER_STATE"
  | "HTTP_REQUEST_INVALID"
  | "HTTP_REQUEST_FAILED"
  | "HTTP_TIMEOUT"
  | "HTTP_RESPONSE_INVALID"
  | "HTTP_RESPONSE_TOO_LARGE"
  | "HTTP_OPERATION_FAILED"
  | "HTTP_REPLY_INVALID";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<HttpErrorCode>([
  "HTTP_OPTION_INVALID",
  "HTTP_ROUTE_CONFLICT",
  "HTTP_REQUEST_INVALID",
  "HTTP_REPLY_INVALID",
]);

/** The one error base class of @routekit/http; `code` says what kind of failure it is. */
export class HttpError extends RoutekitError<HttpErrorCode> {
  override readonly name: string = "HttpError";

  constructor(code: HttpErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}

/** What `HttpOperationFailedError` records about the failed call. */
export interface HttpOperationFailure {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The start of the response body (at most 512 characters). */
  readonly bodyExcerpt: string;
  /** The `location` header of a redirect, when there is one. */
  readonly redirectLocation: string | undefined;
}

/** A remote server answered outside the accepted status range (`throwExceptionOnFailure`). */
export class HttpOperationFailedError extends HttpError {
  override readonly name = "HttpOperationFailedError";
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly bodyExcerpt: string;
  readonly redirectLocation: string | undefined;

  constructor(failure: HttpOperationFailure) {
    const excerpt = failure.bodyExcerpt === "" ? "" : `: ${failure.bodyExcerpt}`;
    super(
      "HTTP_OPERATION_FAILED",
      `${failure.method} ${failure.url} answered HTTP ${failure.status}${excerpt}`,
    );
    this.method = failure.method;
    this.url = failure.url;
    this.status = failure.status;
    this.bodyExcerpt = failure.bodyExcerpt;
    this.redirectLocation = failure.redirectLocation;
  }
}
