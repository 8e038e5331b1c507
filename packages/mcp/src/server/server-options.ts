import type { RouteContext } from "@routekit/core";
import type { Tool } from "@routekit/llm";
import type { ToolErrorPolicy } from "@routekit/llm/internal";
import type { ToolInputSchema } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";
import { refuseUnknownOptions } from "../refuse-unknown-options.js";

/** Which of the context's tools an MCP server exposes: names, or a test of each tool. */
export type ToolSelection = readonly string[] | ((tool: Tool) => boolean);

/** Which resource routes (`asMcpResource`) a server exposes: URIs (or templates), or a test of each. */
export type ResourceSelection = readonly string[] | ((resource: { uri: string; name: string }) => boolean);
/** Which prompt routes (`asMcpPrompt`) a server exposes: names, or a test of each. */
export type PromptSelection = readonly string[] | ((prompt: { name: string }) => boolean);

/** Options of every routekit MCP server (stdio, HTTP, or a transport of your own). */
export interface McpServerOptions {
  /**
   * The tools to expose, required: a list of names, or a predicate over `context.tools` (e.g.
   * `(tool) => tool.source === "route"`). Nothing is exposed by default. Tools registered or removed
   * later are picked up (clients get `notifications/tools/list_changed`).
   */
  tools: ToolSelection;
  /**
   * The resource routes to expose (`asMcpResource`): URIs and templates as declared, or a
   * predicate. None by default (the server then declares no `resources` capability).
   */
  resources?: ResourceSelection;
  /** The prompt routes to expose (`asMcpPrompt`): names or a predicate. None by default. */
  prompts?: PromptSelection;
  /** The server name clients see in `initialize` (default "routekit"). */
  name?: string;
  /** The server version clients see (default this package's version). */
  version?: string;
  /** Instructions clients may show their model. */
  instructions?: string;
  /**
   * Deadline of one tool call in milliseconds (default 60000): the signal the tool gets (a route's
   * `exchange.signal`) fires then, with a `TimeoutError`.
   */
  toolTimeoutMs?: number;
  /**
   * What a client reads of a failed call, as for the llm step: "safe" (default: the message
   * without hosts, addresses, paths or class names), "message", or `(error, toolName) => string`.
   */
  toolErrors?: ToolErrorPolicy;
  /**
   * Output schemas by tool name (JSON Schema or Standard Schema, root `type: "object"`): the tool
   * lists them and returns its value as `structuredContent`, checked against them. A tool registered
   * with its own `outputSchema` needs no entry here.
   */
  outputSchemas?: Record<string, ToolInputSchema>;
}

/** Options after checking, with defaults. */
export interface ResolvedServerOptions {
  readonly isExposed: (tool: Tool) => boolean;
  readonly isResourceExposed: ((resource: { uri: string; name: string }) => boolean) | undefined;
  readonly isPromptExposed: ((prompt: { name: string }) => boolean) | undefined;
  readonly name: string;
  readonly version: string;
  readonly instructions: string | undefined;
  readonly toolTimeoutMs: number;
  readonly toolErrors: ToolErrorPolicy;
  readonly outputSchemas: Readonly<Record<string, ToolInputSchema>> | undefined;
}

export const PACKAGE_VERSION = "0.1.0";

export const SERVER_OPTION_NAMES = [
  "tools",
  "resources",
  "prompts",
  "name",
  "version",
  "instructions",
  "toolTimeoutMs",
  "toolErrors",
  "outputSchemas",
] as const;

/** Checks server options (`extra` names more options the caller accepts) and fills in defaults. */
export function resolveServerOptions(
  options: McpServerOptions,
  where: string,
  extra: readonly string[] = [],
): ResolvedServerOptions {
  const fail = (message: string) => new RoutekitMcpError("OPTION_INVALID", message);
  if (options === null || typeof options !== "object") {
    throw fail(`${where} expects options with a 'tools' list or predicate, e.g. { tools: ["math_eval"] }`);
  }
  refuseUnknownOptions(options, [...SERVER_OPTION_NAMES, ...extra], where, fail);
  const { tools } = options;
  let isExposed: (tool: Tool) => boolean;
  if (typeof tools === "function") {
    isExposed = (tool) => tools(tool) === true;
  } else if (Array.isArray(tools) && tools.every((name) => typeof name === "string")) {
    const names = new Set<string>(tools);
    isExposed = (tool) => names.has(tool.name);
  } else {
    throw fail(
      `${where}: option 'tools' is required and must be a list of tool names or a predicate ` +
        `(tool) => boolean, so that no tool is exposed by accident (found ${describe(tools)})`,
    );
  }
  const toolTimeoutMs = options.toolTimeoutMs ?? 60_000;
  if (!Number.isInteger(toolTimeoutMs) || toolTimeoutMs < 1 || toolTimeoutMs >= 2 ** 31) {
    throw fail(
      `${where}: option 'toolTimeoutMs' must be a positive integer of milliseconds (found ${describe(toolTimeoutMs)})`,
    );
  }
  const toolErrors = options.toolErrors ?? "safe";
  if (toolErrors !== "safe" && toolErrors !== "message" && typeof toolErrors !== "function") {
    throw fail(
      `${where}: option 'toolErrors' must be "safe", "message" or a function (found ${describe(toolErrors)})`,
    );
  }
  for (const key of ["name", "version", "instructions"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw fail(`${where}: option '${key}' must be a non-empty string (found ${describe(value)})`);
    }
  }
  const { outputSchemas } = options;
  if (outputSchemas !== undefined && (outputSchemas === null || typeof outputSchemas !== "object")) {
    throw fail(
      `${where}: option 'outputSchemas' must be schemas by tool name (found ${describe(outputSchemas)})`,
    );
  }
  return {
    isExposed,
    isResourceExposed: selection(options.resources, "uri", "resources", where),
    isPromptExposed: selection(options.prompts, "name", "prompts", where),
    name: options.name ?? "routekit",
    version: options.version ?? PACKAGE_VERSION,
    instructions: options.instructions,
    toolTimeoutMs,
    toolErrors,
    outputSchemas,
  };
}

function selection<TKey extends "uri" | "name">(
  given: readonly string[] | ((entry: Record<TKey, string> & { name: string }) => boolean) | undefined,
  key: TKey,
  option: string,
  where: string,
): ((entry: Record<TKey, string> & { name: string }) => boolean) | undefined {
  if (given === undefined) return undefined;
  if (typeof given === "function") return (entry) => given(entry) === true;
  if (Array.isArray(given) && given.every((name) => typeof name === "string")) {
    const names = new Set<string>(given);
    return (entry) => names.has(entry[key]);
  }
  throw new RoutekitMcpError(
    "OPTION_INVALID",
    `${where}: option '${option}' must be a list of ${key === "uri" ? "URIs" : "names"} or a predicate (found ${describe(given)})`,
  );
}

/** The exposed tools of a context right now, in registration order. */
export function exposedTools(context: RouteContext, options: ResolvedServerOptions): Tool[] {
  return context.tools.list().filter(options.isExposed);
}

export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `a ${typeof value}`;
}
