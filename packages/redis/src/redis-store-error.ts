import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/redis raises. */
export type RedisStoreErrorCode =
  | "OPTIONS_INVALID"
  | "CONNECTION_FAILED"
  | "COMMAND_FAILED"
  | "KEY_IN_PROGRESS"
  | "CLAIM_LOST"
  | "VALUE_CORRUPT";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<RedisStoreErrorCode>([
  "OPTIONS_INVALID",
  "VALUE_CORRUPT",
]);

/** The one error class of @routekit/redis; `code` says what kind of failure it is. */
export class RedisStoreError extends RoutekitError<RedisStoreErrorCode> {
  override readonly name = "RedisStoreError";

  constructor(code: RedisStoreErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}

/** A short description of anything thrown. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A value shown in an error message, cut to a readable length. */
export function preview(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
