import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RouteContext } from "@routekit/core";
import type { OptionChecks } from "@routekit/core/internal";
import { type McpServerOptions, resolveServerOptions } from "./server-options.js";
import { McpToolServer } from "./tool-server.js";

/** Options of `serveMcpStdio`. */
export interface McpStdioOptions extends McpServerOptions {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable;
  /** Where responses go (default `process.stdout`: nothing else may write there). */
  stdout?: Writable;
  /** Largest message read, in bytes (default 4 MiB); a bigger one closes the connection. */
  maxMessageBytes?: number;
}

/** What `serveMcpStdio` takes besides every server's options. */
const STDIO_OPTION_CHECKS = {
  stdin: {
    type: "custom",
    expected: "a readable stream",
    check: (value: unknown) => typeof (value as Readable | null)?.on === "function",
  },
  stdout: {
    type: "custom",
    expected: "a writable stream",
    check: (value: unknown) => typeof (value as Writable | null)?.write === "function",
  },
  maxMessageBytes: { type: "integer", min: 1, unit: "bytes", default: 4 * 1024 * 1024 },
} as const satisfies OptionChecks;

/** A running stdio server. */
export interface McpStdioServer {
  readonly server: McpToolServer;
  /** Resolves when the client closed the connection (stdin ended) or `close` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves `context`'s selected tools over stdio, the way MCP hosts (Claude Desktop, IDEs) launch
 * local servers: requests on stdin, responses on stdout. Nothing else may write to stdout — point
 * the context's logger at stderr (the `routekit-mcp` command does).
 */
export async function serveMcpStdio(
  context: RouteContext,
  options: McpStdioOptions,
): Promise<McpStdioServer> {
  const resolved = resolveServerOptions(options, "serveMcpStdio", STDIO_OPTION_CHECKS);
  const server = new McpToolServer(context, resolved);
  const transport = new StdioServerTransport(options.stdin, options.stdout, {
    maxBufferSize: resolved.extra.maxMessageBytes,
  });
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const stdin = options.stdin ?? process.stdin;
  const onEnd = () => {
    void server.close().then(markClosed);
  };
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  const session = await server.connect(transport);
  const previous = session.onclose;
  session.onclose = () => {
    previous?.();
    markClosed();
  };
  return {
    server,
    closed,
    async close() {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      await server.close();
      markClosed();
    },
  };
}
