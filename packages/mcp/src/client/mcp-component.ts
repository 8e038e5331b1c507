import { defineComponent, type Endpoint, type Exchange, type RouteContext } from "@routekit/core";
import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { argumentsOf } from "./arguments-of.js";
import type { McpConnection } from "./connection.js";
import { promptEndpoint, resourceEndpoint } from "./remote-endpoints.js";

/** The connections `mcpTools` made in a context, by server name. */
export function connectionsOf(context: RouteContext): Map<string, McpConnection> {
  return context.service("routekit.mcp.connections", () => new Map<string, McpConnection>());
}

/**
 * `mcp:SERVER/TOOL?timeout=5000` — calls tool TOOL (as the server names it) of the server
 * `mcpTools({ name: SERVER, ... })` connected. Body in = the arguments (an object, or JSON text);
 * body out = the tool's value (its `structuredContent`, else its text). The arguments are checked
 * against the tool's input schema first; an error result or a failed call fails the exchange.
 * `mcp:SERVER/resource/URI` reads a resource and `mcp:SERVER/prompt/NAME` gets a prompt.
 */
export const mcpComponent = defineComponent({
  scheme: "mcp",
  options: {
    timeout: { type: "integer", min: 1, description: "deadline of the call in milliseconds" },
  },
  createEndpoint(address, context) {
    const slash = address.path.indexOf("/");
    const serverName = slash < 0 ? address.path : address.path.slice(0, slash);
    const target = slash < 0 ? "" : address.path.slice(slash + 1);
    if (serverName === "" || target === "") {
      throw new RoutekitMcpError(
        "OPTION_INVALID",
        `Endpoint '${address.uri}': expected mcp:SERVER/TOOL, mcp:SERVER/resource/URI or mcp:SERVER/prompt/NAME, e.g. mcp:files/read_file`,
      );
    }
    const connection = connectionNamed(connectionsOf(context), serverName, address.uri);
    const timeoutMs = address.options.timeout;
    if (target.startsWith("resource/")) {
      return resourceEndpoint(connection, address.uri, target.slice("resource/".length), timeoutMs);
    }
    if (target.startsWith("prompt/")) {
      return promptEndpoint(connection, address.uri, target.slice("prompt/".length), timeoutMs);
    }
    return toolEndpoint(connection, address.uri, target, timeoutMs);
  },
});

function connectionNamed(
  connections: Map<string, McpConnection>,
  serverName: string,
  uri: string,
): McpConnection {
  const connection = connections.get(serverName);
  if (connection !== undefined) return connection;
  const known = [...connections.keys()];
  throw new RoutekitMcpError(
    "OPTION_INVALID",
    `Endpoint '${uri}': no MCP server named '${truncateForMessage(serverName)}'${didYouMean(serverName, known, { quoted: true })}; ` +
      (known.length === 0
        ? "add one with context.use(mcpTools({ name, command | url }))"
        : `known servers: ${known.join(", ")}`),
  );
}

function toolEndpoint(
  connection: McpConnection,
  uri: string,
  toolName: string,
  timeoutMs: number | undefined,
): Endpoint {
  const { context } = connection;
  return {
    uri,
    async send(exchange: Exchange) {
      const tool = connection.tools.get(toolName);
      if (tool === undefined) {
        const known = [...connection.tools.keys()];
        throw new RoutekitMcpError(
          "TOOL_NOT_FOUND",
          `Endpoint '${uri}': MCP server '${connection.name}' has no tool '${truncateForMessage(toolName)}'` +
            `${didYouMean(toolName, known, { quoted: true })}; its tools: ${truncateForMessage(known.join(", "), 1000) || "none (not connected yet?)"}`,
        );
      }
      exchange.body = await context.tools.call(tool, argumentsOf(exchange.body, uri), {
        signal: exchange.signal,
        ...(timeoutMs === undefined ? undefined : { timeoutMs }),
      });
    },
  };
}
