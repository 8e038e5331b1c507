import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** What went wrong in the console. */
export type ConsoleErrorCode = "OPTION_INVALID" | "LISTEN_FAILED";

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<ConsoleErrorCode>(["OPTION_INVALID"]);

/** The one error class of @routekit/console; `code` says what kind of failure it is. */
export class ConsoleError extends RoutekitError<ConsoleErrorCode> {
  override readonly name: string = "ConsoleError";

  constructor(code: ConsoleErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}
