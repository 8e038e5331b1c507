import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/amqp raises. */
export type AmqpErrorCode =
  | "OPTIONS_INVALID"
  | "CONNECTION_FAILED"
  | "LOGIN_REFUSED"
  | "TOPOLOGY_FAILED"
  | "PUBLISH_FAILED"
  | "PUBLISH_NACKED"
  | "PUBLISH_UNROUTABLE"
  | "PUBLISH_TIMEOUT"
  | "REQUEST_TIMEOUT"
  | "REMOTE_ROUTE_FAILED"
  | "ENCODE_FAILED"
  | "DECODE_FAILED";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<AmqpErrorCode>([
  "OPTIONS_INVALID",
  "LOGIN_REFUSED",
  "TOPOLOGY_FAILED",
  "ENCODE_FAILED",
  "DECODE_FAILED",
]);

/** The one error class of @routekit/amqp; `code` says what kind of failure it is. */
export class AmqpError extends RoutekitError<AmqpErrorCode> {
  override readonly name = "AmqpError";

  constructor(code: AmqpErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}

/** The URL with its password replaced, safe for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, "$1***@");
}

/** A short description of anything thrown (amqplib errors carry the broker's reply text). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
