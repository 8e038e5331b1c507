import type { Logger, RouteContext } from "@routekit/core";

const MAX_SHOWN = 160;

/** Shortens text for one trace line. */
export function shorten(text: string, max = MAX_SHOWN): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max)}... (${flat.length} chars)` : flat;
}

/** Tool arguments for one trace line: each key with its value, long values shortened. */
export function describeArguments(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return shorten(text);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return shorten(text);
  return Object.entries(parsed)
    .map(([key, value]) => `${key}=${shorten(JSON.stringify(value) ?? "", 60)}`)
    .join(" ");
}

/** A logger printing `log` steps as indented trace lines (warnings and errors go to stderr). */
export function traceLogger(): Logger {
  const print = (message: string) => console.log(`   log   ${message}`);
  return {
    trace: () => {},
    debug: () => {},
    info: print,
    warn: (message) => console.warn(`   warn  ${message}`),
    error: (message) => console.error(`   error ${message}`),
  };
}

/**
 * Prints what happens as it happens, from `context.events`: model calls, each tool call with its
 * arguments, duration and result, and the exchanges of the routes named in `routeIds`.
 */
export function printTrace(context: RouteContext, routeIds: readonly string[]): void {
  const events = context.events;
  events.on("model-call-completed", (event) => {
    const { inputTokens, outputTokens } = event.usage;
    console.log(
      `   model call ${event.iteration}: ${event.provider}/${event.model} -> ${event.stopReason} ` +
        `(${inputTokens} tokens in, ${outputTokens} out, ${event.durationMs.toFixed(1)} ms)`,
    );
  });
  events.on("model-call-failed", (event) => {
    console.log(`   model call ${event.iteration} failed: ${event.error.message}`);
  });
  events.on("tool-call-started", (event) => {
    console.log(`   -> tool ${event.toolName} ${describeArguments(event.arguments ?? "")}`);
  });
  events.on("tool-call-completed", (event) => {
    const outcome = event.isError ? "ERROR" : "ok";
    console.log(
      `   <- tool ${event.toolName} ${outcome} in ${event.durationMs.toFixed(1)} ms: ${shorten(event.output ?? "")}`,
    );
  });
  events.on("exchange-completed", (event) => {
    if (routeIds.includes(event.routeId)) {
      console.log(`   route ${event.routeId}: exchange done in ${event.durationMs.toFixed(1)} ms`);
    }
  });
  events.on("exchange-failed", (event) => {
    if (routeIds.includes(event.routeId)) {
      console.log(`   route ${event.routeId}: exchange FAILED: ${event.error.message}`);
    }
  });
}
