import type { LogLevel } from "../model/route-definition.js";

/** Where routekit writes log lines; plug in pino, winston or anything with these methods. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** True when a line at `level` passes a logger configured at `threshold`. */
export function levelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return level !== "off" && ORDER[level] >= ORDER[threshold];
}

/** The default logger: one line per call on stdout/stderr, with a level threshold (default info). */
export function createConsoleLogger(threshold: LogLevel = "info"): Logger {
  const line = (level: LogLevel, write: (text: string) => void) => (message: string) => {
    if (levelEnabled(level, threshold))
      write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}`);
  };
  return {
    trace: line("trace", console.debug),
    debug: line("debug", console.debug),
    info: line("info", console.info),
    warn: line("warn", console.warn),
    error: line("error", console.error),
  };
}
