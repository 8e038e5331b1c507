import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { truncateForMessage } from "@routekit/core/internal";
import { createTool, type Tool, type ToolResult } from "@routekit/llm";
import type { ToolCallContext } from "@routekit/llm/tool";
import { messageOf } from "./call-error.js";
import type { ResolvedMcpToolsOptions } from "./client-options.js";
import { withKnownKeywords } from "./lenient-schema.js";
import { localToolName } from "./local-tool-name.js";

interface Registered {
  readonly tool: Tool;
  readonly signature: string;
}

/** Calls one of the server's tools by the name the server gives it. */
export type RemoteCall = (
  toolName: string,
  args: Record<string, unknown>,
  call: ToolCallContext,
) => Promise<ToolResult>;

/**
 * A server's tools as routekit `Tool`s, kept in line with the context's tool registry: what the
 * server lists (and re-lists on `notifications/tools/list_changed`) is registered, what it drops
 * or changes is unregistered (and registered again when changed).
 */
export class RemoteTools {
  readonly #context: RouteContext;
  readonly #options: ResolvedMcpToolsOptions;
  readonly #call: RemoteCall;
  #tools = new Map<string, Tool>();
  readonly #registered = new Map<string, Registered>();

  constructor(context: RouteContext, options: ResolvedMcpToolsOptions, call: RemoteCall) {
    this.#context = context;
    this.#options = options;
    this.#call = call;
  }

  /** The server's tools by the names the server gives them (registered or not). */
  get byRemoteName(): ReadonlyMap<string, Tool> {
    return this.#tools;
  }

  /** Makes the server's tools routekit tools and brings the registry in line with them. */
  apply(remote: readonly McpTool[], initial: boolean): void {
    const tools = new Map<string, Tool>();
    const wanted = new Map<string, Registered>();
    for (const definition of remote) {
      const localName = localToolName(this.#options.prefix, definition.name);
      let tool: Tool;
      try {
        tool = this.#toTool(definition, localName);
      } catch (error) {
        this.#warn(`tool '${definition.name}' is skipped: ${messageOf(error)}`);
        continue;
      }
      tools.set(definition.name, tool);
      if (!this.#options.include(definition.name)) continue;
      const signature = JSON.stringify([definition.description ?? "", definition.inputSchema]);
      wanted.set(localName, { tool, signature });
    }
    this.#tools = tools;
    this.#sync(wanted, initial);
  }

  /** Unregisters every tool this server registered. */
  unregisterAll(): void {
    for (const name of this.#registered.keys()) this.#context.tools.unregister(name);
    this.#registered.clear();
  }

  #sync(wanted: ReadonlyMap<string, Registered>, initial: boolean): void {
    const registry = this.#context.tools;
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
        this.#warn(`tool '${truncateForMessage(name)}' is not registered: ${messageOf(error)}`);
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
        original: {
          mcpServer: this.#options.name,
          mcpTool: remoteName,
          outputSchema: definition.outputSchema,
        },
        execute: (args, call) => this.#call(remoteName, args, call),
      }),
    );
  }

  #warn(message: string): void {
    this.#context.logger.warn(`mcp '${this.#options.name}': ${message}`);
  }
}

/** Every page of the server's tool list (at most 100 pages). */
export async function listRemoteTools(client: Client, timeoutMs: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
