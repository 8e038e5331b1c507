/** Codes of every error @routekit/redis raises. */
export type RedisStoreErrorCode =
  | "OPTIONS_INVALID"
  | "CONNECTION_FAILED"
  | "COMMAND_FAILED"
  | "KEY_IN_PROGRESS"
  | "CLAIM_LOST"
  | "VALUE_CORRUPT";

/** The one error class of @routekit/redis; `code` says what kind of failure it is. */
export class RedisStoreError extends Error {
  override readonly name = "RedisStoreError";
  readonly code: RedisStoreErrorCode;

  constructor(code: RedisStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
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
