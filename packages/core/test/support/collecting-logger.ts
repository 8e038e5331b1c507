import type { Logger } from "@routekit/core";

/** A logger that keeps every line as `<level> <message>`, for tests that read what was logged. */
export function collectingLogger(): Logger & { lines: string[] } {
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
