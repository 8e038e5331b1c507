import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";

/**
 * The transport of one connection, as the MCP SDK's `Transport` has it: `StdioServerTransport`,
 * `StreamableHTTPServerTransport` or one of your own. Declared here rather than imported from the
 * SDK's `shared/transport.js`, whose declarations need the DOM's fetch types (`HeadersInit`):
 * routekit's declarations compile under `lib: ["ES2023"]` and `types: ["node"]`.
 * `McpToolServer.connect` hands it to the SDK, so the compiler checks the two agree.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(
    message: JSONRPCMessage,
    options?: {
      relatedRequestId?: RequestId | undefined;
      resumptionToken?: string | undefined;
      onresumptiontoken?: ((token: string) => void) | undefined;
    },
  ): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    | (<TMessage extends JSONRPCMessage>(message: TMessage, extra?: MessageExtraInfo) => void)
    | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/** One connection an `McpToolServer` serves (the SDK's `Server` of that connection). */
export interface McpSession {
  /** Called when the connection has closed. */
  onclose?: (() => void) | undefined;
  /** Closes the connection. */
  close(): Promise<void>;
}
