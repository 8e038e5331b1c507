/** What went wrong in the console. */
export type ConsoleErrorCode = "OPTION_INVALID" | "LISTEN_FAILED";

/** The one error class of @routekit/console; `code` says what kind of failure it is. */
export class ConsoleError extends Error {
  override readonly name: string = "ConsoleError";
  readonly code: ConsoleErrorCode;

  constructor(code: ConsoleErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
