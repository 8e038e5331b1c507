// @routekit/mcp: a context's tools as an MCP server (stdio, Streamable HTTP), MCP servers' tools as
// routekit tools (`mcpTools`, the `mcp:` component), and the `routekit-mcp` command.

// Client: MCP servers' tools in routekit
export type { McpElicitationAnswer, McpSamplingAnswer } from "./client/answer-types.js";
export type { McpOAuthClientProvider, McpToolsOptions } from "./client/client-options.js";
export {
  localToolName,
  type McpConnection,
  type McpConnectionState,
  type McpRequestOptions,
} from "./client/connection.js";
export type { McpCrossAppAccessOptions } from "./client/cross-app-access-options.js";
export { mcpComponent } from "./client/mcp-component.js";
export { mcpConnectionOf, mcpTools } from "./client/mcp-tools.js";
export { MCP_PROMPT_DESCRIPTION_HEADER, MCP_RESOURCE_MIME_TYPE_HEADER } from "./client/remote-endpoints.js";
export type {
  McpGetPromptResult,
  McpPromptMessage,
  McpReadResourceResult,
  McpResourceContent,
} from "./client/remote-types.js";
// Errors
export { MCP_ERROR_CODES, type McpErrorCode, RoutekitMcpError } from "./errors.js";
export {
  type McpElicitRequest,
  type McpElicitResult,
  type McpSampleRequest,
  type McpSampleResult,
  mcpElicit,
  mcpSample,
} from "./server/ask-client.js";
export type { CallTarget } from "./server/call-target.js";
export {
  type McpCompleter,
  type McpPromptArgument,
  notifyResourceUpdated,
} from "./server/catalog.js";
export {
  isMcpContent,
  type McpBytes,
  type McpContent,
  type McpResourceContents,
  mcpAudio,
  mcpImage,
  mcpResource,
  mcpText,
} from "./server/content.js";
export { MCP_LOG_LEVELS, type McpLogLevel, mcpLog } from "./server/mcp-log.js";
// Server: routekit tools over MCP
export { type McpServerPluginOptions, mcpServer, mcpServerOf } from "./server/mcp-server-plugin.js";
export type { McpSession, McpTransport } from "./server/mcp-transport.js";
export { type McpMountedHttpOptions, mountMcpHttp } from "./server/mount-http.js";
export { type ProgressUpdate, reportProgress } from "./server/progress.js";
export type {
  AsMcpPromptOptions,
  McpPromptReply,
  McpPromptReplyMessage,
} from "./server/prompts.js";
export type { AsMcpResourceOptions, McpResourceBody } from "./server/resources.js";
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpOptions,
  type McpHttpServer,
  serveMcpHttp,
} from "./server/serve-http.js";
export { type McpStdioOptions, type McpStdioServer, serveMcpStdio } from "./server/serve-stdio.js";
export type {
  McpServerOptions,
  PromptSelection,
  ResourceSelection,
  ToolSelection,
} from "./server/server-options.js";
export { createMcpToolServer, McpToolServer } from "./server/tool-server.js";
