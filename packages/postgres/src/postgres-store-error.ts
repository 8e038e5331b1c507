import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/postgres raises. */
export type PostgresStoreErrorCode =
  | "OPTIONS_INVALID"
  | "CONNECTION_FAILED"
  | "QUERY_FAILED"
  | "SCHEMA_MISSING"
  | "KEY_IN_PROGRESS"
  | "CLAIM_LOST"
  | "VALUE_CORRUPT"
  | "POOL_EXHAUSTED"
  | "TRANSACTION_MISSING"
  | "TRANSACTION_ENDED";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<PostgresStoreErrorCode>([
  "OPTIONS_INVALID",
  "SCHEMA_MISSING",
  "VALUE_CORRUPT",
  "TRANSACTION_MISSING",
]);

/** The one error class of @routekit/postgres; `code` says what kind of failure it is. */
export class PostgresStoreError extends RoutekitError<PostgresStoreErrorCode> {
  override readonly name = "PostgresStoreError";

  constructor(code: PostgresStoreErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}

/** A short description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((inner: unknown) => describeError(inner)).join("; ");
  }
  return error instanceof Error
    ? error.message || String((error as { code?: unknown }).code ?? error.name)
    : String(error);
}

/** A value shown in an error message, cut to a readable length. */
export function preview(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
