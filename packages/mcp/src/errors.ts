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

/**
 * The one error base class of @routekit/mcp; `code` says what kind of failure it is. (Named so it
 * does not collide with the SDK's `McpError`, the JSON-RPC error of the protocol itself.)
 */
export class RoutekitMcpError extends Error {
  override readonly name: string = "RoutekitMcpError";
  readonly code: McpErrorCode;

  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
