import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { callSessionOf } from "./call-sessions.js";
import type { CallTarget } from "./call-target.js";
import { levelOf } from "./logging.js";

/** MCP log levels, least severe first. */
export const MCP_LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export type McpLogLevel = LoggingLevel;

/**
 * Sends a log line to the MCP client whose tool call `target` serves — the exchange of a tool
 * route (from any of its steps) or a native tool's `ToolCallContext` — as `notifications/message`
 * on that call's stream, unless the client set a higher level with `logging/setLevel`. `data` is
 * any JSON value (a string in the simple case). Returns true when the line was sent; outside an
 * MCP call it does nothing.
 *
 * ```ts
 * .process((exchange) => { mcpLog(exchange, "info", "reading the ledger"); })
 * ```
 */
export function mcpLog(target: CallTarget, level: McpLogLevel, data: unknown, logger?: string): boolean {
  if (!MCP_LOG_LEVELS.includes(level)) {
    throw new TypeError(
      `mcpLog: level must be one of ${MCP_LOG_LEVELS.join(", ")} (found ${JSON.stringify(level)})`,
    );
  }
  const session = callSessionOf(target);
  if (session === undefined) return false;
  const { server, extra } = session;
  const least = levelOf(server);
  if (least !== undefined && MCP_LOG_LEVELS.indexOf(level) < MCP_LOG_LEVELS.indexOf(least)) return false;
  const params = logger === undefined ? { level, data } : { level, data, logger };
  extra.sendNotification({ method: "notifications/message", params }).catch(() => undefined);
  return true;
}
