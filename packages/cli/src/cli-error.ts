import { RoutekitError } from "@routekit/core";

/** What went wrong in the command: a command line that cannot be run, or a failure while running. */
export type CliErrorCode = "USAGE_INVALID" | "COMMAND_FAILED";

/** A mistake on the command line or in the routes module, said the way the command prints it. */
export class CliError extends RoutekitError<CliErrorCode> {
  override readonly name: string = "CliError";
  /** The exit code: 2 for a command line that cannot be run, 1 for a failure while running. */
  readonly exitCode: number;

  constructor(message: string, exitCode = 1, options?: { cause?: unknown }) {
    const code: CliErrorCode = exitCode === 2 ? "USAGE_INVALID" : "COMMAND_FAILED";
    super(code, message, { cause: options?.cause, retryable: false });
    this.exitCode = exitCode;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
