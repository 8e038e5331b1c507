/** A mistake on the command line or in the routes module, said the way the command prints it. */
export class CliError extends Error {
  override readonly name = "CliError";
  /** The exit code: 2 for a command line that cannot be run, 1 for a failure while running. */
  readonly exitCode: number;

  constructor(message: string, exitCode = 1, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
