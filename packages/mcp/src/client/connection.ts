import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { truncateForMessage } from "@routekit/core/internal";
import type { Tool, ToolResult } from "@routekit/llm";
import type { ToolCallContext } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";
import { reportProgress } from "../server/progress.js";
import { PACKAGE_VERSION } from "../server/server-options.js";
import { answerServerRequests, clientCapabilities } from "./answer-server.js";
import { completeAuthorization, isAuthorizationRedirect } from "./authorization.js";
import { callFailure, messageOf } from "./call-error.js";
import type { ResolvedMcpToolsOptions } from "./client-options.js";
import { ConnectionWaiters } from "./connection-waiters.js";
import { createTransport } from "./create-transport.js";
import { toToolResult } from "./remote-result.js";
import { listRemoteTools, RemoteTools } from "./remote-tools.js";
import type { McpGetPromptResult, McpReadResourceResult } from "./remote-types.js";

// Kept apart from remote-tools.ts: its declarations name the SDK client, whose types need the DOM
// library, and must not reach the package's published declarations.
export { localToolName } from "./local-tool-name.js";

/** Where a connection is: connecting, serving calls, waiting to reconnect, given up or stopped. */
export type McpConnectionState = "idle" | "connecting" | "connected" | "reconnecting" | "failed" | "stopped";

/** A request's deadline and cancellation, as a tool call carries them. */
export type McpRequestOptions = Pick<ToolCallContext, "signal" | "timeoutMs">;

/** Authorization rounds (code for tokens) one connection attempt or one request may take. */
const MAX_AUTHORIZATIONS = 2;

/**
 * One MCP server as routekit sees it: a client connection (a child process over stdio, or Streamable
 * HTTP), its tools as routekit `Tool`s registered in `context.tools`, its resources and prompts,
 * and reconnection with backoff when the server goes away. Made by `mcpTools`; started and stopped
 * with the context.
 */
export class McpConnection {
  readonly context: RouteContext;
  readonly options: ResolvedMcpToolsOptions;
  #state: McpConnectionState = "idle";
  #client: Client | undefined;
  #transport: Transport | undefined;
  readonly #remoteTools: RemoteTools;
  readonly #waiters = new ConnectionWaiters();
  #attempt = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #connections = 0;

  constructor(context: RouteContext, options: ResolvedMcpToolsOptions) {
    this.context = context;
    this.options = options;
    this.#remoteTools = new RemoteTools(context, options, (name, args, call) =>
      this.callTool(name, args, call),
    );
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
    return this.#remoteTools.byRemoteName;
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
    this.#waiters.wake();
    this.#remoteTools.unregisterAll();
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
  callTool(toolName: string, args: Record<string, unknown>, call: ToolCallContext = {}): Promise<ToolResult> {
    const callId = call.callId;
    const onprogress =
      callId === undefined
        ? undefined
        : (update: { progress: number; total?: number; message?: string }) =>
            reportProgress({ callId }, update.progress, update.total, update.message);
    return this.#request(`tool '${toolName}'`, call, async (client, timeout) => {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
        timeout,
        maxTotalTimeout: timeout,
        ...(call.signal === undefined ? undefined : { signal: call.signal }),
        ...(onprogress === undefined ? undefined : { onprogress }),
      });
      return toToolResult(result as Parameters<typeof toToolResult>[0], this.name, toolName);
    });
  }

  /** Reads the server's resource `uri` (`resources/read`), bounded as `callTool` is. */
  readResource(uri: string, options: McpRequestOptions = {}): Promise<McpReadResourceResult> {
    return this.#request(`resource '${truncateForMessage(uri)}'`, options, (client, timeout) =>
      client.readResource({ uri }, { timeout, ...signalOf(options) }),
    );
  }

  /** Gets the server's prompt `name` with `args` (`prompts/get`), bounded as `callTool` is. */
  getPrompt(
    name: string,
    args: Record<string, string>,
    options: McpRequestOptions = {},
  ): Promise<McpGetPromptResult> {
    return this.#request(`prompt '${truncateForMessage(name)}'`, options, (client, timeout) =>
      client.getPrompt({ name, arguments: args }, { timeout, ...signalOf(options) }),
    );
  }

  /**
   * Runs one request once connected (waiting for a reconnection within the deadline), completing
   * an authorization the server asks for (a scope step-up) and sending the request again.
   */
  async #request<T>(
    what: string,
    call: McpRequestOptions,
    run: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = Math.min(call.timeoutMs ?? Number.POSITIVE_INFINITY, this.options.callTimeoutMs);
    const started = performance.now();
    const where = `mcp '${this.name}': ${what}`;
    const client = await this.#ready(timeoutMs, call.signal, what);
    for (let authorizations = 0; ; authorizations++) {
      const left = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
      try {
        return await run(client, left);
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason ?? error;
        if (isAuthorizationRedirect(error) && authorizations < MAX_AUTHORIZATIONS) {
          await completeAuthorization(this.#transport, this.options, error);
          continue;
        }
        const failure = callFailure(error, where, left);
        if (failure.transportLost) this.#lost(client, `a call failed in transport (${messageOf(error)})`);
        throw failure.error;
      }
    }
  }

  async #connect(initial: boolean): Promise<void> {
    for (let authorizations = 0; ; authorizations++) {
      const transport = createTransport(this.options);
      try {
        await this.#open(transport, initial);
        break;
      } catch (error) {
        if (isAuthorizationRedirect(error) && authorizations < MAX_AUTHORIZATIONS) {
          const authorized = await completeAuthorization(transport, this.options, error).then(
            () => undefined,
            (failure: unknown) => failure,
          );
          if (authorized === undefined && this.#state !== "stopped") continue;
          throw this.#connectFailed(authorized ?? error);
        }
        throw this.#connectFailed(error);
      }
    }
    this.#connections++;
    this.#attempt = 0;
    this.#state = "connected";
    this.#waiters.wake();
  }

  /** Connects a client over `transport`, lists the tools and makes them this connection's. */
  async #open(transport: Transport, initial: boolean): Promise<void> {
    const { options } = this;
    const client = new Client(
      { name: "routekit", version: PACKAGE_VERSION },
      { capabilities: clientCapabilities(options) },
    );
    answerServerRequests(client, this.context, options);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.#client !== client) return;
      this.#refresh(client).catch((error: unknown) => {
        this.context.logger.warn(`mcp '${this.name}': re-reading the tool list failed: ${messageOf(error)}`);
      });
    });
    client.onclose = () => this.#lost(client, "the connection closed");
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs });
      const tools = await listRemoteTools(client, options.connectTimeoutMs);
      if (this.#state === "stopped") throw new RoutekitMcpError("NOT_CONNECTED", "stopped while connecting");
      this.#client = client;
      this.#transport = transport;
      this.#remoteTools.apply(tools, initial);
    } catch (error) {
      if (this.#client === client) {
        this.#client = undefined;
        this.#transport = undefined;
      }
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  #connectFailed(error: unknown): RoutekitMcpError {
    const { options } = this;
    const where = options.command === undefined ? String(options.url) : `'${options.command}'`;
    return new RoutekitMcpError(
      "CONNECT_FAILED",
      `mcp '${this.name}': cannot connect to the MCP server ${where}: ${messageOf(error)}`,
      { cause: error },
    );
  }

  async #refresh(client: Client): Promise<void> {
    const tools = await listRemoteTools(client, this.options.connectTimeoutMs);
    if (this.#client === client) this.#remoteTools.apply(tools, false);
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
      this.#waiters.wake();
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
  #ready(timeoutMs: number, signal: AbortSignal | undefined, what: string): Promise<Client> {
    const connected = () => (this.#state === "connected" ? this.#client : undefined);
    const client = connected();
    if (client !== undefined) return Promise.resolve(client);
    const notConnected = () =>
      new RoutekitMcpError(
        "NOT_CONNECTED",
        `mcp '${this.name}': cannot call ${what}: the MCP server is not connected (${this.#state})`,
      );
    if (this.#state !== "reconnecting" && this.#state !== "connecting") return Promise.reject(notConnected());
    return this.#waiters.waitFor({
      settled: () => this.#state !== "reconnecting" && this.#state !== "connecting",
      value: connected,
      notConnected,
      timeoutMs,
      signal,
      timedOut: () =>
        new RoutekitMcpError(
          "CALL_TIMEOUT",
          `mcp '${this.name}': ${what} timed out after ${timeoutMs} ms waiting for the server to reconnect`,
        ),
    });
  }
}

function signalOf(options: McpRequestOptions): { signal?: AbortSignal } {
  return options.signal === undefined ? {} : { signal: options.signal };
}
