import { RoutekitError } from "@routekit/core";
import type { RoutekitErrorOptions } from "@routekit/core/internal";

/** Codes of every error @routekit/mcp raises. */
export type McpErrorCode =
  | "OPTION_INVALID"
  | "CONNECT_FAILED"
  | "NOT_CONNECTED"
  | "CALL_FAILED"
  | "CALL_TIMEOUT"
  | "TOOL_NOT_FOUND"
  | "SERVER_STATE"
  | "ROUTES_INVALID"
  | "CAPABILITY_MISSING";

/** Every code of `McpErrorCode`, for checks at run time. */
export const MCP_ERROR_CODES: readonly McpErrorCode[] = [
  "OPTION_INVALID",
  "CONNECT_FAILED",
  "NOT_CONNECTED",
  "CALL_FAILED",
  "CALL_TIMEOUT",
  "TOOL_NOT_FOUND",
  "SERVER_STATE",
  "ROUTES_INVALID",
  "CAPABILITY_MISSING",
];

/** Codes whose failure the same message would meet again: not redelivered by default. */
const PERMANENT_CODES: ReadonlySet<string> = new Set<McpErrorCode>([
  "OPTION_INVALID",
  "TOOL_NOT_FOUND",
  "ROUTES_INVALID",
]);

/**
 * The one error base class of @routekit/mcp; `code` says what kind of failure it is. (Named so it
 * does not collide with the SDK's `McpError`, the JSON-RPC error of the protocol itself.)
 */
export class RoutekitMcpError extends RoutekitError<McpErrorCode> {
  override readonly name: string = "RoutekitMcpError";

  constructor(code: McpErrorCode, message: string, options?: RoutekitErrorOptions) {
    super(code, message, { ...options, retryable: options?.retryable ?? !PERMANENT_CODES.has(code) });
  }
}
