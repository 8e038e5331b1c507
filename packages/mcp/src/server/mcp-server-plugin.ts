import type { Plugin, RouteContext } from "@routekit/core";
import { RoutekitMcpError } from "../errors.js";
import { type McpMountedHttpOptions, mountMcpHttp } from "./mount-http.js";
import { type McpHttpOptions, type McpHttpServer, serveMcpHttp } from "./serve-http.js";
import { type McpStdioOptions, type McpStdioServer, serveMcpStdio } from "./serve-stdio.js";

/**
 * Options of `mcpServer`: the server's options plus its transport. Over HTTP the endpoint has a
 * server of its own, or with `mount: "http"` sits at `path` on the server of `httpPlugin`
 * (installed before it), beside the `http:` routes.
 */
export type McpServerPluginOptions =
  | ({ transport: "stdio" } & McpStdioOptions)
  | ({ transport: "http"; mount?: undefined } & McpHttpOptions)
  | ({ transport: "http"; mount: "http" } & McpMountedHttpOptions);

const servers = new WeakMap<RouteContext, McpHttpServer | McpStdioServer>();

/**
 * Serves the context's selected tools over MCP for as long as the context runs: the server starts
 * after the routes (so their tools are listed) and closes when the context stops.
 *
 * ```ts
 * context.use(mcpServer({ transport: "http", port: 3001, tools: ["math_eval", "order_status"] }));
 * // or on the http: routes' server, at /mcp:
 * context.use(httpPlugin({ port: 8080 }));
 * context.use(mcpServer({ transport: "http", mount: "http", tools: ["math_eval", "order_status"] }));
 * ```
 */
export function mcpServer(options: McpServerPluginOptions): Plugin {
  const transport = options?.transport;
  if (transport !== "stdio" && transport !== "http") {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `mcpServer: option 'transport' must be "stdio" or "http" (found ${JSON.stringify(transport)})`,
    );
  }
  const {
    transport: _transport,
    mount,
    ...serverOptions
  } = options as McpServerPluginOptions & {
    mount?: unknown;
  };
  if (mount !== undefined && (mount !== "http" || transport !== "http")) {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `mcpServer: option 'mount' must be "http" (the endpoint on httpPlugin's server), with transport "http" (found ${JSON.stringify(mount)}${transport === "http" ? "" : ` with transport "${transport}"`})`,
    );
  }
  return {
    name: "mcp-server",
    install(context) {
      context.addLifecycle({
        async start() {
          const running =
            transport === "stdio"
              ? await serveMcpStdio(context, serverOptions as McpStdioOptions)
              : mount === "http"
                ? await mountMcpHttp(context, serverOptions as McpMountedHttpOptions)
                : await serveMcpHttp(context, serverOptions as McpHttpOptions);
          servers.set(context, running);
        },
        async stop() {
          const running = servers.get(context);
          servers.delete(context);
          await running?.close();
        },
      });
    },
  };
}

/** The running MCP server `mcpServer` started in a context (its `url` for HTTP). */
export function mcpServerOf(context: RouteContext): McpHttpServer | McpStdioServer {
  const running = servers.get(context);
  if (running === undefined) {
    throw new RoutekitMcpError(
      "SERVER_STATE",
      "this context runs no MCP server: install one with context.use(mcpServer({ ... })) and start the context",
    );
  }
  return running;
}
