import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ResolvedMcpToolsOptions } from "./client-options.js";

/** The SDK transport of one connection: a child process over stdio, or Streamable HTTP. */
export function createTransport(options: ResolvedMcpToolsOptions): Transport {
  if (options.command !== undefined) {
    return new StdioClientTransport({
      command: options.command,
      args: [...options.args],
      stderr: options.stderr,
      ...(options.env === undefined ? undefined : { env: options.env }),
      ...(options.cwd === undefined ? undefined : { cwd: options.cwd }),
    });
  }
  return new StreamableHTTPClientTransport(options.url as URL, {
    ...(options.headers === undefined ? undefined : { requestInit: { headers: options.headers } }),
    ...(options.authProvider === undefined
      ? undefined
      : // The options accept only the SDK's providers (their members are checked when given).
        { authProvider: options.authProvider as OAuthClientProvider }),
    // Reconnection is ours: the SSE stream's own retries stay few.
    reconnectionOptions: {
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 5000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 2,
    },
  });
}
