import { LlmToolsError, type LlmToolsErrorCode } from "../errors.js";

/** What an http_fetch failure records besides its code and message. */
export interface HttpFetchFailure {
  /** The status the server answered with; undefined when no response arrived. */
  readonly status?: number;
  /** The URL requested, without user info, fragment or the values of secret query parameters. */
  readonly url: string;
  /** True when trying again may succeed: 429, 5xx, a timeout or a connection reset. */
  readonly retryable: boolean;
  readonly cause?: unknown;
}

/**
 * An http_fetch failure after its input was read: a refused host or address, a non-2xx status,
 * a redirect limit, a timeout or a transport error. Route expressions read its fields:
 * `retryWhile: "${exception.status} >= 500"`, `"${exception.retryable}"`, `${exception.url}`.
 */
export class HttpFetchError extends LlmToolsError {
  override readonly name = "HttpFetchError";
  readonly status: number | undefined;
  readonly url: string;

  constructor(code: LlmToolsErrorCode, message: string, failure: HttpFetchFailure) {
    super(code, "http_fetch", message, { cause: failure.cause, retryable: failure.retryable });
    this.status = failure.status;
    this.url = failure.url;
  }
}

/** True for the statuses worth trying again: 429 Too Many Requests and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}
