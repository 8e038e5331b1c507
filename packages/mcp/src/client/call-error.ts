import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { RoutekitMcpError } from "../errors.js";

/** A failed request as routekit reports it, and whether the transport itself failed (reconnect). */
export interface CallFailure {
  readonly error: RoutekitMcpError;
  readonly transportLost: boolean;
}

/**
 * What a failed request to a server means: the server's own error (`CALL_FAILED`), no answer in
 * time (`CALL_TIMEOUT`), or the transport failing (an HTTP server gone or restarted), which makes
 * the connection reconnect. `where` names the request, e.g. "mcp 'files': tool 'read'".
 */
export function callFailure(error: unknown, where: string, timeoutMs: number): CallFailure {
  if (error instanceof RoutekitMcpError) return { error, transportLost: false };
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      const timeout = new RoutekitMcpError("CALL_TIMEOUT", `${where} did not answer within ${timeoutMs} ms`, {
        cause: error,
      });
      return { error: timeout, transportLost: false };
    }
    const message =
      error.code === ErrorCode.ConnectionClosed
        ? `${where}: the server closed the connection during the call`
        : `${where}: ${error.message.replace(/^MCP error -?\d+: /, "")}`;
    return { error: new RoutekitMcpError("CALL_FAILED", message, { cause: error }), transportLost: false };
  }
  const lost = new RoutekitMcpError(
    "CALL_FAILED",
    `${where}: the MCP server could not be reached: ${messageOf(error)}`,
    { cause: error },
  );
  return { error: lost, transportLost: true };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
