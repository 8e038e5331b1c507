import type { Plugin, RouteContext } from "@routekit/core";
import { RoutekitMcpError } from "../errors.js";
import { type McpToolsOptions, resolveMcpToolsOptions } from "./client-options.js";
import { McpConnection } from "./connection.js";
import { connectionsOf, mcpComponent } from "./mcp-component.js";

/**
 * Connects to an MCP server — a child process over stdio (`command`, `args`) or Streamable HTTP
 * (`url`) — when the context starts, and registers its tools in `context.tools` as `PREFIX<tool>`
 * (prefix `NAME_` by default), so an llm step can offer them and any route can call one with
 * `to("mcp:NAME/tool")`. Reconnects with backoff when the server goes away, bounds every call,
 * re-registers on `notifications/tools/list_changed`, and closes the connection (ending the child
 * process) when the context stops.
 *
 * ```ts
 * context.use(mcpTools({ name: "files", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }));
 * ```
 */
export function mcpTools(options: McpToolsOptions): Plugin {
  const resolved = resolveMcpToolsOptions(options);
  return {
    name: `mcp:${resolved.name}`,
    install(context) {
      const connections = connectionsOf(context);
      if (connections.has(resolved.name)) {
        throw new RoutekitMcpError(
          "OPTION_INVALID",
          `mcpTools: a server named '${resolved.name}' is already installed in this context`,
        );
      }
      if (connections.size === 0) context.addComponent(mcpComponent);
      const connection = new McpConnection(context, resolved);
      connections.set(resolved.name, connection);
      context.addLifecycle({
        start: () => connection.start(),
        stop: () => connection.stop(),
      });
    },
  };
}

/** The connection `mcpTools({ name })` made in a context: its state, tools and child pid. */
export function mcpConnectionOf(context: RouteContext, name: string): McpConnection {
  const connection = connectionsOf(context).get(name);
  if (connection === undefined) {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `no MCP server named '${name}' is installed in this context`,
    );
  }
  return connection;
}
