/** Codes of every error @routekit/postgres raises. */
export type PostgresStoreErrorCode =
  | "OPTIONS_INVALID"
  | "CONNECTION_FAILED"
  | "QUERY_FAILED"
  | "SCHEMA_MISSING"
  | "KEY_IN_PROGRESS"
  | "CLAIM_LOST"
  | "VALUE_CORRUPT";

/** The one error class of @routekit/postgres; `code` says what kind of failure it is. */
export class PostgresStoreError extends Error {
  override readonly name = "PostgresStoreError";
  readonly code: PostgresStoreErrorCode;

  constructor(code: PostgresStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
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
