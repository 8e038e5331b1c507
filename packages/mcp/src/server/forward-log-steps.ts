import type { RouteContext } from "@routekit/core";
import { type LogStepTap, logStepTapsOf } from "@routekit/core/internal";
import { type McpLogLevel, mcpLog } from "./mcp-log.js";

/** routekit's log levels as MCP's (trace has no MCP level of its own: it is debug). */
const MCP_LEVEL_OF: Readonly<Record<string, McpLogLevel>> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

/** One tap for every MCP call (calls are found by their call id); added once per context. */
const forward: LogStepTap = (exchange, level, message, logger) => {
  const mcpLevel = MCP_LEVEL_OF[level];
  if (mcpLevel !== undefined) mcpLog(exchange, mcpLevel, message, logger);
};

/** How many servers of a context forward its log steps. */
const forwarding = new WeakMap<RouteContext, number>();

/**
 * Makes the lines a tool route's `log` steps write while serving an MCP call reach the calling
 * client as `notifications/message` (at the level the client set with `logging/setLevel`; the
 * step's logger name as the notification's `logger`), beside the context's own log. Returns the
 * function that stops it (once every server of the context stopped).
 */
export function forwardLogSteps(context: RouteContext): () => void {
  const taps = logStepTapsOf(context);
  taps.add(forward);
  forwarding.set(context, (forwarding.get(context) ?? 0) + 1);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (forwarding.get(context) ?? 1) - 1;
    forwarding.set(context, left);
    if (left === 0) taps.delete(forward);
  };
}
