import { defineComponent, type Exchange, type RouteContext } from "@routekit/core";
import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import type { McpConnection } from "./connection.js";

/** The connections `mcpTools` made in a context, by server name. */
export function connectionsOf(context: RouteContext): Map<string, McpConnection> {
  return context.service("routekit.mcp.connections", () => new Map<string, McpConnection>());
}

/**
 * `mcp:SERVER/TOOL?timeout=5000` — calls tool TOOL (as the server names it) of the server
 * `mcpTools({ name: SERVER, ... })` connected. Body in = the arguments (an object, or JSON text);
 * body out = the tool's value (its `structuredContent`, else its text). The arguments are checked
 * against the tool's input schema first; an error result or a failed call fails the exchange.
 */
export const mcpComponent = defineComponent({
  scheme: "mcp",
  options: {
    timeout: { type: "integer", min: 1, description: "deadline of the call in milliseconds" },
  },
  createEndpoint(address, context) {
    const slash = address.path.indexOf("/");
    const serverName = slash < 0 ? address.path : address.path.slice(0, slash);
    const toolName = slash < 0 ? "" : address.path.slice(slash + 1);
    const connections = connectionsOf(context);
    if (serverName === "" || toolName === "") {
      throw new RoutekitMcpError(
        "OPTION_INVALID",
        `Endpoint '${address.uri}': expected mcp:SERVER/TOOL, e.g. mcp:files/read_file`,
      );
    }
    const connection = connections.get(serverName);
    if (connection === undefined) {
      const known = [...connections.keys()];
      throw new RoutekitMcpError(
        "OPTION_INVALID",
        `Endpoint '${address.uri}': no MCP server named '${truncateForMessage(serverName)}'${didYouMean(serverName, known, { quoted: true })}; ` +
          (known.length === 0
            ? "add one with context.use(mcpTools({ name, command | url }))"
            : `known servers: ${known.join(", ")}`),
      );
    }
    const timeoutMs = address.options.timeout;
    return {
      uri: address.uri,
      async send(exchange: Exchange) {
        const tool = connection.tools.get(toolName);
        if (tool === undefined) {
          const known = [...connection.tools.keys()];
          throw new RoutekitMcpError(
            "TOOL_NOT_FOUND",
            `Endpoint '${address.uri}': MCP server '${serverName}' has no tool '${truncateForMessage(toolName)}'` +
              `${didYouMean(toolName, known, { quoted: true })}; its tools: ${truncateForMessage(known.join(", "), 1000) || "none (not connected yet?)"}`,
          );
        }
        exchange.body = await context.tools.call(tool, argumentsOf(exchange.body, address.uri), {
          signal: exchange.signal,
          ...(timeoutMs === undefined ? undefined : { timeoutMs }),
        });
      },
    };
  },
});

function argumentsOf(body: unknown, uri: string): Record<string, unknown> {
  if (body === undefined || body === null || body === "") return {};
  let value = body;
  if (typeof body === "string" || body instanceof Uint8Array) {
    const text = typeof body === "string" ? body : new TextDecoder().decode(body);
    try {
      value = JSON.parse(text);
    } catch {
      throw new RoutekitMcpError(
        "CALL_FAILED",
        `Endpoint '${uri}': the body is text that is not JSON; send an object of arguments`,
      );
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RoutekitMcpError("CALL_FAILED", `Endpoint '${uri}': the body must be an object of arguments`);
  }
  return value as Record<string, unknown>;
}
