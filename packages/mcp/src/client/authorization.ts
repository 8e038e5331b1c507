import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createDeadline, truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { messageOf } from "./call-error.js";
import type { ResolvedMcpToolsOptions } from "./client-options.js";

/** Longest authorization code accepted from `authorizationCode` (codes are short opaque strings). */
const MAX_CODE_CHARS = 4096;

/**
 * True when the SDK stopped a request for an authorization in a user agent: the authorization-code
 * flow's redirect (at connection, or a scope step-up on a 403 `insufficient_scope`).
 */
export function isAuthorizationRedirect(error: unknown): boolean {
  return error instanceof UnauthorizedError;
}

/**
 * Completes the authorization-code flow the SDK began with the provider's `redirectToAuthorization`:
 * awaits the code the redirect URI received (option `authorizationCode`, within `connectTimeoutMs`)
 * and has the SDK exchange it at the token endpoint (PKCE verifier, resource indicator), the
 * provider keeping the tokens for the next request.
 */
export async function completeAuthorization(
  transport: Transport | undefined,
  options: ResolvedMcpToolsOptions,
  cause: unknown,
): Promise<void> {
  const where = `mcp '${options.name}'`;
  const codeOf = options.authorizationCode;
  if (codeOf === undefined || !(transport instanceof StreamableHTTPClientTransport)) {
    throw new RoutekitMcpError(
      "CALL_FAILED",
      `${where}: the server needs an authorization in a user agent (${messageOf(cause)}); ` +
        "give mcpTools the option 'authorizationCode' that returns the code the redirect URI received",
      { cause },
    );
  }
  const deadline = createDeadline(options.connectTimeoutMs);
  let code: unknown;
  try {
    code = await Promise.race([
      codeOf(deadline.signal),
      new Promise<never>((_, reject) => {
        deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason), { once: true });
      }),
    ]);
  } catch (error) {
    throw new RoutekitMcpError(
      "CALL_FAILED",
      `${where}: option 'authorizationCode' gave no code within ${options.connectTimeoutMs} ms: ${messageOf(error)}`,
      { cause: error },
    );
  } finally {
    deadline.clear();
  }
  if (typeof code !== "string" || code === "" || code.length > MAX_CODE_CHARS) {
    throw new RoutekitMcpError(
      "CALL_FAILED",
      `${where}: option 'authorizationCode' must return a non-empty string of at most ${MAX_CODE_CHARS} characters (found ${truncateForMessage(String(code))})`,
    );
  }
  await transport.finishAuth(code);
}
