import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import type { Tool } from "@routekit/llm";
import { approveParkedRun } from "./approve-parked-run.js";
import { CallClock } from "./call-clock.js";
import { openCallSession } from "./call-sessions.js";
import { catalogOf } from "./catalog.js";
import { forwardLogSteps } from "./forward-log-steps.js";
import { ProgressForwarding } from "./forward-progress.js";
import { serveLogging } from "./logging.js";
import type { McpSession, McpTransport } from "./mcp-transport.js";
import { outputOf, type ToolOutput } from "./output-schema.js";
import { type CallSettings, errorContent, runCall } from "./run-call.js";
import { CatalogSession } from "./serve-catalog.js";
import {
  exposedTools,
  type McpServerOptions,
  type ResolvedServerOptions,
  resolveServerOptions,
} from "./server-options.js";

/** Call ids: a random prefix per process and a count (a UUID per call costs more than the call). */
const CALL_ID_PREFIX = `mcp-${randomUUID()}-`;
let callCount = 0;

/**
 * A context's tools as an MCP server: one SDK `Server` per connection (a stdio process has one, an
 * HTTP endpoint one per session), all sharing the options and the registry. Create it with
 * `createMcpToolServer`, connect transports, and close it before the context stops.
 */
export class McpToolServer {
  readonly context: RouteContext;
  readonly options: ResolvedServerOptions;
  readonly #sessions = new Set<Server>();
  /** The resource subscriptions of each connection. */
  readonly #catalogSessions = new WeakMap<Server, CatalogSession>();
  readonly #outputs = new WeakMap<Tool, ToolOutput | null>();
  readonly #stopListening: () => void;
  /** Times each call in flight; the server ends them when it closes. */
  readonly #clock: CallClock;
  /** How many calls are in flight, and who waits for none to be (`drain`). */
  #inFlight = 0;
  #drained: (() => void) | undefined = undefined;
  /** The step after every call's tool: approvals of a parked durable run (one function, not one per call). */
  readonly #afterTool: NonNullable<CallSettings["afterTool"]> = (result, callId, deadline) =>
    approveParkedRun(this.context, callId, result, deadline);
  /** The context's tool registry, read once (each read of `context.tools` looks the service up). */
  readonly #tools: RouteContext["tools"];
  /** Fires when the server drains: a result no longer waits for the client to confirm progress. */
  readonly #closing = new AbortController();
  #notifyScheduled = false;
  #closed = false;

  constructor(context: RouteContext, options: ResolvedServerOptions) {
    this.context = context;
    this.options = options;
    this.#clock = new CallClock(options.toolTimeoutMs, context);
    this.#tools = context.tools;
    const stopTools = this.#tools.onChange((change) => {
      if (options.isExposed(change.tool)) this.#scheduleListChanged();
    });
    const catalog = catalogOf(context);
    const stopCatalog = catalog.onChange((kind) => this.#catalogChanged(kind));
    const stopUpdates = catalog.onUpdate((uri) => this.#resourceUpdated(uri));
    const stopLogSteps = forwardLogSteps(context);
    this.#stopListening = () => {
      stopLogSteps();
      stopTools();
      stopCatalog();
      stopUpdates();
    };
  }

  /** How many connections are open. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** The MCP tool definitions clients see now. */
  listTools(): McpTool[] {
    return exposedTools(this.context, this.options).map((tool) => {
      const definition: McpTool = {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as McpTool["inputSchema"],
      };
      const output = outputOf(tool, this.options.outputSchemas, this.#outputs);
      if (output !== undefined) definition.outputSchema = output.schema as McpTool["outputSchema"];
      return definition;
    });
  }

  /** Serves one connection over `transport` (any transport of the MCP SDK); resolves once it is started. */
  async connect(transport: McpTransport): Promise<McpSession> {
    if (this.#closed) throw protocolError(ErrorCode.ConnectionClosed, "the MCP server is closed");
    const server = this.#createSession();
    this.#sessions.add(server);
    server.onclose = () => {
      this.#sessions.delete(server);
    };
    try {
      await server.connect(transport);
    } catch (error) {
      this.#sessions.delete(server);
      throw error;
    }
    return server;
  }

  /** Calls running now. */
  get callsInFlight(): number {
    return this.#inFlight;
  }

  #endCall(): void {
    this.#inFlight--;
    if (this.#inFlight === 0 && this.#drained !== undefined) {
      this.#drained();
      this.#drained = undefined;
    }
  }

  /**
   * Stops taking calls and ends the ones in flight (their tools' and routes' signals fire),
   * resolving once each has its answer — an `isError` result saying the server is closing — with
   * its transport to send. The connections stay open: `close` closes them.
   */
  async drain(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#stopListening();
      this.#closing.abort();
    }
    for (const deadline of this.#clock.running()) deadline.close();
    if (this.#inFlight > 0) {
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    }
    this.#clock.stop();
    // The SDK sends each result a few promise turns after the call settles.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Ends the calls in flight (see `drain`), then closes every connection. */
  async close(): Promise<void> {
    await this.drain();
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((server) => server.close()));
  }

  #createSession(): Server {
    const { options } = this;
    const server = new Server(
      { name: options.name, version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          logging: {},
          ...(options.isResourceExposed === undefined
            ? undefined
            : { resources: { subscribe: true, listChanged: true } }),
          ...(options.isPromptExposed === undefined ? undefined : { prompts: { listChanged: true } }),
          ...(options.isResourceExposed === undefined && options.isPromptExposed === undefined
            ? undefined
            : { completions: {} }),
        },
        ...(options.instructions === undefined ? undefined : { instructions: options.instructions }),
      },
    );
    serveLogging(server);
    this.#catalogSessions.set(server, new CatalogSession(server, this.context, options));
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listTools() }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> => {
      const { name } = request.params;
      const tool = this.#tools.get(name);
      if (tool === undefined || !options.isExposed(tool)) {
        const known = exposedTools(this.context, options).map((exposed) => exposed.name);
        const message = `unknown tool '${truncateForMessage(name)}'${didYouMean(name, known, { quoted: true })}`;
        return Promise.reject(protocolError(ErrorCode.InvalidParams, message));
      }
      if (this.#closed) {
        return Promise.resolve(
          errorContent(`tool '${truncateForMessage(name)}' was cancelled: the MCP server is closing`),
        );
      }
      const callId = `${CALL_ID_PREFIX}${(++callCount).toString(36)}`;
      const token = request.params._meta?.progressToken;
      const progress = token === undefined ? undefined : new ProgressForwarding(callId, token, extra);
      const closeSession = openCallSession(callId, { server, extra });
      const running = runCall(tool, request.params.arguments, {
        callId,
        signal: extra.signal,
        clock: this.#clock,
        toolErrors: options.toolErrors,
        output: outputOf(tool, options.outputSchemas, this.#outputs),
        afterTool: this.#afterTool,
      });
      const call = progress === undefined ? running : this.#afterProgress(running, progress);
      this.#inFlight++;
      // One reaction for both (a `finally` would add two promise turns to every call).
      return call.then(
        (result) => {
          closeSession();
          this.#endCall();
          return result;
        },
        (error: unknown) => {
          closeSession();
          this.#endCall();
          throw error;
        },
      );
    });
    return server;
  }

  /** The call's result once the client has handled the progress it sent (see ProgressForwarding). */
  async #afterProgress(
    running: Promise<CallToolResult>,
    progress: ProgressForwarding,
  ): Promise<CallToolResult> {
    try {
      return await running;
    } finally {
      await progress.finish(this.#closing.signal);
    }
  }

  #catalogChanged(kind: "resources" | "prompts"): void {
    if (this.#closed) return;
    const exposes = kind === "resources" ? this.options.isResourceExposed : this.options.isPromptExposed;
    if (exposes === undefined) return;
    for (const server of this.#sessions) {
      const sent = kind === "resources" ? server.sendResourceListChanged() : server.sendPromptListChanged();
      sent.catch(() => undefined);
    }
  }

  #resourceUpdated(uri: string): void {
    if (this.#closed) return;
    for (const server of this.#sessions) {
      if (this.#catalogSessions.get(server)?.subscriptions.has(uri) !== true) continue;
      server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }

  // Several routes added at once make one notification.
  #scheduleListChanged(): void {
    if (this.#notifyScheduled || this.#closed) return;
    this.#notifyScheduled = true;
    setImmediate(() => {
      this.#notifyScheduled = false;
      for (const server of this.#sessions) server.sendToolListChanged().catch(() => undefined);
    });
  }
}

/**
 * Makes an MCP server of `context`'s tools — the ones `options.tools` names or accepts — to connect
 * to any transport of the SDK (`serveMcpStdio` and `serveMcpHttp` do it for you).
 */
export function createMcpToolServer(context: RouteContext, options: McpServerOptions): McpToolServer {
  return new McpToolServer(context, resolveServerOptions(options, "createMcpToolServer"));
}

/**
 * A JSON-RPC error the SDK sends as it is: its `code` and plain `message` (the SDK's `McpError`
 * prefixes its message with the code, which the client would then prefix once more).
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
