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

/**
 * An error's message on one line; a schema error of the SDK (e.g. a token response without
 * `access_token`) as the fields that did not match, not its multi-line JSON.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { issues } = error as { issues?: unknown };
  if (error.name !== "ZodError" || !Array.isArray(issues)) return error.message;
  const fields = issues.map((issue: { path?: unknown[]; message?: string }) => {
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.join(".") : "(the answer)";
    return `${path}: ${issue.message ?? "invalid"}`;
  });
  return `the answer does not have the expected shape (${fields.join("; ")})`;
}
