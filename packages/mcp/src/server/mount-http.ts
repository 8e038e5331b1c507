import type { RouteContext } from "@routekit/core";
import { RoutekitMcpError } from "../errors.js";
import { isLoopback } from "./http-guards.js";
import { createMcpHttpHandler, type McpHttpOptions, type McpHttpServer } from "./serve-http.js";

/** Options of `mountMcpHttp`: those of `serveMcpHttp` but the address, which is the http: server's. */
export type McpMountedHttpOptions = Omit<McpHttpOptions, "host" | "port">;

/**
 * Serves `context`'s selected tools over MCP Streamable HTTP at `path` (default "/mcp") of the
 * server `httpPlugin` runs, beside the `http:` routes, with the same `Origin`/`Host` checks and
 * optional bearer token as `serveMcpHttp`. The context must have started (the server listens then);
 * a server bound beyond loopback needs a `token`. `close` unmounts the endpoint and closes its
 * sessions; the port stays the http: server's.
 */
export async function mountMcpHttp(
  context: RouteContext,
  options: McpMountedHttpOptions,
): Promise<McpHttpServer> {
  const fail = (message: string, cause?: unknown) =>
    new RoutekitMcpError("OPTION_INVALID", `mountMcpHttp: ${message}`, { cause });
  for (const key of ["host", "port"]) {
    if (options !== null && typeof options === "object" && key in options) {
      throw fail(
        `option '${key}' is not used: the endpoint is on the http: server, whose address httpPlugin({ host, port }) sets`,
      );
    }
  }
  const { httpServerOf, mountHttpHandler } = await import("@routekit/http");
  let address: { host: string; port: number };
  let base: string;
  try {
    const http = httpServerOf(context);
    address = http.address;
    base = http.url;
  } catch (error) {
    throw new RoutekitMcpError(
      "SERVER_STATE",
      "mountMcpHttp needs the context's running http: server: install httpPlugin() before mcpServer() and start the context",
      { cause: error },
    );
  }
  const loopback = isLoopback(address.host);
  if (!loopback && options.token === undefined) {
    throw fail(
      `the http: server listens on '${address.host}', beyond this machine; give a 'token' (or bind httpPlugin to 127.0.0.1)`,
    );
  }
  const path = options.path ?? "/mcp";
  const handler = createMcpHttpHandler(context, options, "mountMcpHttp", loopback ? address.port : undefined);
  let unmount: () => void;
  try {
    unmount = mountHttpHandler(context, path, (request, response) => handler.handle(request, response));
  } catch (error) {
    await handler.close();
    throw fail(error instanceof Error ? error.message : String(error), error);
  }
  return {
    server: handler.server,
    url: `${base}${path}`,
    get sessions() {
      return handler.sessions;
    },
    async close() {
      unmount();
      await handler.close();
    },
  };
}
