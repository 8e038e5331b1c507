import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { truncateForMessage } from "@routekit/core/internal";
import { createTool, type Tool, type ToolResult } from "@routekit/llm";
import { TOOL_NAME_PATTERN, type ToolCallContext } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";
import { reportProgress } from "../server/progress.js";
import { PACKAGE_VERSION } from "../server/server-options.js";
import { answerServerRequests, clientCapabilities } from "./answer-server.js";
import type { ResolvedMcpToolsOptions } from "./client-options.js";
import { withKnownKeywords } from "./lenient-schema.js";
import { toToolResult } from "./remote-result.js";

/** Where a connection is: connecting, serving calls, waiting to reconnect, given up or stopped. */
export type McpConnectionState = "idle" | "connecting" | "connected" | "reconnecting" | "failed" | "stopped";

interface Registered {
  readonly tool: Tool;
  readonly signature: string;
}

/**
 * One MCP server as routekit sees it: a client connection (a child process over stdio, or Streamable
 * HTTP), its tools as routekit `Tool`s registered in `context.tools`, and reconnection with backoff
 * when the server goes away. Made by `mcpTools`; started and stopped with the context.
 */
export class McpConnection {
  readonly context: RouteContext;
  readonly options: ResolvedMcpToolsOptions;
  #state: McpConnectionState = "idle";
  #client: Client | undefined;
  #transport: Transport | undefined;
  #tools = new Map<string, Tool>();
  readonly #registered = new Map<string, Registered>();
  #waiters: Array<() => void> = [];
  #attempt = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #connections = 0;

  constructor(context: RouteContext, options: ResolvedMcpToolsOptions) {
    this.context = context;
    this.options = options;
  }

  get name(): string {
    return this.options.name;
  }

  get state(): McpConnectionState {
    return this.#state;
  }

  /** The child process id of a stdio server while connected. */
  get pid(): number | undefined {
    const transport = this.#transport;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  /** How many times a connection was made (1 after start, +1 per reconnection). */
  get connections(): number {
    return this.#connections;
  }

  /** The server's tools by the names the server gives them (registered or not). */
  get tools(): ReadonlyMap<string, Tool> {
    return this.#tools;
  }

  /** Connects and registers the tools; a failure stops the context's start with `CONNECT_FAILED`. */
  async start(): Promise<void> {
    if (this.#state !== "idle" && this.#state !== "stopped") return;
    this.#state = "connecting";
    try {
      await this.#connect(true);
    } catch (error) {
      this.#state = "failed";
      throw error;
    }
  }

  /** Stops reconnecting, unregisters the tools and closes the connection (ending the child process). */
  async stop(): Promise<void> {
    this.#state = "stopped";
    clearTimeout(this.#reconnectTimer);
    this.#wake();
    for (const name of this.#registered.keys()) this.context.tools.unregister(name);
    this.#registered.clear();
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
    this.#transport = undefined;
  }

  /**
   * Calls the server's tool `toolName` (as the server names it) with `args`, bounded by the smaller
   * of the caller's `timeoutMs` and `callTimeoutMs`, cancelled by the caller's signal (the server
   * gets `notifications/cancelled`). Waits for a reconnection within that time. Rejects with
   * `RoutekitMcpError` when the call cannot be made or answered; a tool's own failure is an error
   * result.
   */
  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    call: ToolCallContext = {},
  ): Promise<ToolResult> {
    const timeoutMs = Math.min(call.timeoutMs ?? Number.POSITIVE_INFINITY, this.options.callTimeoutMs);
    const started = performance.now();
    const client = await this.#ready(timeoutMs, call.signal, toolName);
    const left = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
    const callId = call.callId;
    try {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout: left,
        maxTotalTimeout: left,
        ...(call.signal === undefined ? undefined : { signal: call.signal }),
        ...(callId === undefined
          ? undefined
          : {
              onprogress: (update: { progress: number; total?: number; message?: string }) =>
                reportProgress({ callId }, update.progress, update.total, update.message),
            }),
      });
      return toToolResult(result as Parameters<typeof toToolResult>[0], this.name, toolName);
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason ?? error;
      throw this.#callError(error, client, toolName, left);
    }
  }

  async #connect(initial: boolean): Promise<void> {
    const { options } = this;
    const client = new Client(
      { name: "routekit", version: PACKAGE_VERSION },
      { capabilities: clientCapabilities(options) },
    );
    answerServerRequests(client, this.context, options);
    const transport = this.#createTransport();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.#client !== client) return;
      this.#refresh(client).catch((error: unknown) => {
        this.context.logger.warn(`mcp '${this.name}': re-reading the tool list failed: ${messageOf(error)}`);
      });
    });
    client.onclose = () => this.#lost(client, "the connection closed");
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs });
      const tools = await this.#listTools(client);
      if (this.#state === "stopped") throw new RoutekitMcpError("NOT_CONNECTED", "stopped while connecting");
      this.#client = client;
      this.#transport = transport;
      this.#apply(tools, initial);
    } catch (error) {
      if (this.#client === client) {
        this.#client = undefined;
        this.#transport = undefined;
      }
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      const where = options.command === undefined ? String(options.url) : `'${options.command}'`;
      throw new RoutekitMcpError(
        "CONNECT_FAILED",
        `mcp '${this.name}': cannot connect to the MCP server ${where}: ${messageOf(error)}`,
        { cause: error },
      );
    }
    this.#connections++;
    this.#attempt = 0;
    this.#state = "connected";
    this.#wake();
  }

  #createTransport(): Transport {
    const { options } = this;
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

  async #listTools(client: Client): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: this.options.connectTimeoutMs,
      });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  async #refresh(client: Client): Promise<void> {
    const tools = await this.#listTools(client);
    if (this.#client === client) this.#apply(tools, false);
  }

  /** Makes the server's tools routekit tools and brings the registry in line with them. */
  #apply(remote: readonly McpTool[], initial: boolean): void {
    const tools = new Map<string, Tool>();
    const wanted = new Map<string, Registered>();
    for (const definition of remote) {
      const localName = localToolName(this.options.prefix, definition.name);
      let tool: Tool;
      try {
        tool = this.#toTool(definition, localName);
      } catch (error) {
        this.context.logger.warn(
          `mcp '${this.name}': tool '${definition.name}' is skipped: ${messageOf(error)}`,
        );
        continue;
      }
      tools.set(definition.name, tool);
      if (!this.options.include(definition.name)) continue;
      const signature = JSON.stringify([definition.description ?? "", definition.inputSchema]);
      wanted.set(localName, { tool, signature });
    }
    this.#tools = tools;
    const registry = this.context.tools;
    for (const [name, entry] of this.#registered) {
      if (wanted.get(name)?.signature === entry.signature) continue;
      registry.unregister(name);
      this.#registered.delete(name);
    }
    for (const [name, entry] of wanted) {
      if (this.#registered.has(name)) continue;
      try {
        registry.register(entry.tool);
        this.#registered.set(name, entry);
      } catch (error) {
        if (initial) throw error;
        this.context.logger.warn(
          `mcp '${this.name}': tool '${truncateForMessage(name)}' is not registered: ${messageOf(error)}`,
        );
      }
    }
  }

  #toTool(definition: McpTool, localName: string): Tool {
    const remoteName = definition.name;
    return withKnownKeywords(definition.inputSchema as Record<string, unknown>, (inputSchema) =>
      createTool({
        name: localName,
        description: definition.description ?? definition.title ?? "",
        inputSchema,
        source: "native",
        original: { mcpServer: this.name, mcpTool: remoteName, outputSchema: definition.outputSchema },
        execute: (args, call) => this.callTool(remoteName, args, call),
      }),
    );
  }

  #lost(client: Client, reason: string): void {
    if (this.#client !== client || this.#state === "stopped") return;
    this.#client = undefined;
    this.#transport = undefined;
    client.onclose = undefined;
    void client.close().catch(() => undefined);
    this.context.logger.warn(`mcp '${this.name}': ${reason}; reconnecting`);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const policy = this.options.reconnect;
    if (policy === undefined || this.#attempt >= policy.maxAttempts) {
      this.#state = "failed";
      this.context.logger.error(`mcp '${this.name}': the server is gone and will not be reconnected`);
      this.#wake();
      return;
    }
    this.#state = "reconnecting";
    const delay = Math.min(policy.initialDelayMs * 2 ** this.#attempt, policy.maxDelayMs);
    this.#attempt++;
    this.#reconnectTimer = setTimeout(() => {
      if (this.#state !== "reconnecting") return;
      this.#connect(false).catch((error: unknown) => {
        if (this.#state === "stopped") return;
        this.context.logger.warn(
          `mcp '${this.name}': reconnection ${this.#attempt} failed: ${messageOf(error)}`,
        );
        this.#scheduleReconnect();
      });
    }, delay);
  }

  /** The client once connected, waiting for a reconnection up to `timeoutMs`. */
  #ready(timeoutMs: number, signal: AbortSignal | undefined, toolName: string): Promise<Client> {
    const client = this.#client;
    if (client !== undefined && this.#state === "connected") return Promise.resolve(client);
    const notConnected = () =>
      new RoutekitMcpError(
        "NOT_CONNECTED",
        `mcp '${this.name}': cannot call '${toolName}': the MCP server is not connected (${this.#state})`,
      );
    if (this.#state !== "reconnecting" && this.#state !== "connecting") return Promise.reject(notConnected());
    return new Promise<Client>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters = this.#waiters.filter((waiter) => waiter !== onChange);
      };
      const onChange = () => {
        if (this.#state === "reconnecting" || this.#state === "connecting") return;
        finish();
        if (this.#client !== undefined && this.#state === "connected") resolve(this.#client);
        else reject(notConnected());
      };
      const onAbort = () => {
        finish();
        reject(signal?.reason ?? new Error("aborted"));
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new RoutekitMcpError(
            "CALL_TIMEOUT",
            `mcp '${this.name}': '${toolName}' timed out after ${timeoutMs} ms waiting for the server to reconnect`,
          ),
        );
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(onChange);
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #callError(error: unknown, client: Client, toolName: string, timeoutMs: number): unknown {
    const where = `mcp '${this.name}': tool '${toolName}'`;
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) {
        return new RoutekitMcpError("CALL_TIMEOUT", `${where} did not answer within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      if (error.code === ErrorCode.ConnectionClosed) {
        return new RoutekitMcpError(
          "CALL_FAILED",
          `${where}: the server closed the connection during the call`,
          {
            cause: error,
          },
        );
      }
      return new RoutekitMcpError(
        "CALL_FAILED",
        `${where}: ${error.message.replace(/^MCP error -?\d+: /, "")}`,
        {
          cause: error,
        },
      );
    }
    // Anything else is the transport failing (an HTTP server gone or restarted): reconnect.
    this.#lost(client, `a call failed in transport (${messageOf(error)})`);
    return new RoutekitMcpError(
      "CALL_FAILED",
      `${where}: the MCP server could not be reached: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
}

/** The registry name of a server's tool: the prefix, then the name with characters routekit refuses as '_'. */
export function localToolName(prefix: string, remoteName: string): string {
  const name = `${prefix}${remoteName}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return TOOL_NAME_PATTERN.test(name) ? name : `${prefix}tool`.slice(0, 64);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
