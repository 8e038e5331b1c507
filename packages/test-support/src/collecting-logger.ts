/**
 * A logger that keeps every line as `<level> <message>`, for tests that read what was logged. Its
 * shape is core's `Logger` (written out here, so this package depends on no routekit package).
 */
export interface CollectingLogger {
  readonly lines: string[];
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A new `CollectingLogger` with no lines yet. */
export function collectingLogger(): CollectingLogger {
  const lines: string[] = [];
  const write = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return {
    lines,
    trace: write("trace"),
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
  };
}
