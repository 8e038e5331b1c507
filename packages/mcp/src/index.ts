// @routekit/mcp: a context's tools as an MCP server (stdio, Streamable HTTP), MCP servers' tools as
// routekit tools (`mcpTools`, the `mcp:` component), and the `routekit-mcp` command.

// Client: MCP servers' tools in routekit
export type { McpToolsOptions } from "./client/client-options.js";
export { localToolName, type McpConnection, type McpConnectionState } from "./client/connection.js";
export { mcpComponent } from "./client/mcp-component.js";
export { mcpConnectionOf, mcpTools } from "./client/mcp-tools.js";
// Errors
export { MCP_ERROR_CODES, type McpErrorCode, RoutekitMcpError } from "./errors.js";
// Server: routekit tools over MCP
export { type McpServerPluginOptions, mcpServer, mcpServerOf } from "./server/mcp-server-plugin.js";
export type { McpSession, McpTransport } from "./server/mcp-transport.js";
export { type McpMountedHttpOptions, mountMcpHttp } from "./server/mount-http.js";
export { type ProgressUpdate, reportProgress } from "./server/progress.js";
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpOptions,
  type McpHttpServer,
  serveMcpHttp,
} from "./server/serve-http.js";
export { type McpStdioOptions, type McpStdioServer, serveMcpStdio } from "./server/serve-stdio.js";
export type { McpServerOptions, ToolSelection } from "./server/server-options.js";
export { createMcpToolServer, McpToolServer } from "./server/tool-server.js";
