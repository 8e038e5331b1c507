import type { RouteContext } from "@routekit/core";
import {
  type CheckedOptions,
  checkOptions,
  type OptionCheck,
  type OptionChecks,
  type OptionsSite,
} from "@routekit/core/internal";
import type { Tool } from "@routekit/llm";
import type { ToolErrorPolicy } from "@routekit/llm/internal";
import type { ToolInputSchema } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";

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

/** A list of strings or a predicate: which tools, resources or prompts a server exposes. */
function selectionCheck(expected: string) {
  return {
    type: "custom",
    expected,
    check: (value: unknown) =>
      typeof value === "function" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string")),
  } as const;
}

/** The options every routekit MCP server takes. */
const SERVER_OPTION_CHECKS = {
  tools: {
    ...selectionCheck(
      "a list of tool names or a predicate (tool) => boolean, so that no tool is exposed by accident",
    ),
    required: true,
  },
  resources: selectionCheck("a list of URIs or a predicate"),
  prompts: selectionCheck("a list of names or a predicate"),
  name: { type: "string", nonEmpty: true, default: "routekit" },
  version: { type: "string", nonEmpty: true, default: PACKAGE_VERSION },
  instructions: { type: "string", nonEmpty: true },
  toolTimeoutMs: { type: "integer", min: 1, max: 2 ** 31 - 1, unit: "milliseconds", default: 60_000 },
  toolErrors: {
    type: "custom",
    expected: '"safe", "message" or a function',
    check: (value: unknown) => value === "safe" || value === "message" || typeof value === "function",
  },
  outputSchemas: {
    type: "custom",
    expected: "schemas by tool name",
    check: (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value),
  },
} as const satisfies OptionChecks;

/** Where `where`'s option problems become the package's OPTION_INVALID errors. */
export function optionsSite(where: string): OptionsSite {
  return { where, error: (message) => new RoutekitMcpError("OPTION_INVALID", message) };
}

/**
 * Checks server options, and the options `extra` lists that the caller accepts besides (whose
 * checked values it gets as `extra`), and fills in defaults. An unknown option is refused with
 * the nearest known name.
 */
export function resolveServerOptions<TExtra extends OptionChecks = Record<never, OptionCheck>>(
  options: McpServerOptions,
  where: string,
  extra?: TExtra,
): ResolvedServerOptions & { readonly extra: CheckedOptions<TExtra> } {
  if (options === null || typeof options !== "object") {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `${where} expects options with a 'tools' list or predicate, e.g. { tools: ["math_eval"] }`,
    );
  }
  const checks: OptionChecks = { ...SERVER_OPTION_CHECKS, ...extra };
  const checked = checkOptions(checks, options, optionsSite(where)) as CheckedOptions<
    typeof SERVER_OPTION_CHECKS
  > &
    CheckedOptions<TExtra>;
  return {
    isExposed: exposes(options.tools, "name"),
    isResourceExposed: options.resources === undefined ? undefined : exposes(options.resources, "uri"),
    isPromptExposed: options.prompts === undefined ? undefined : exposes(options.prompts, "name"),
    name: checked.name,
    version: checked.version,
    instructions: checked.instructions,
    toolTimeoutMs: checked.toolTimeoutMs,
    toolErrors: options.toolErrors ?? "safe",
    outputSchemas: options.outputSchemas,
    extra: checked,
  };
}

/** A checked selection as a test of an entry's `key`. */
function exposes<TEntry extends Record<TKey, string>, TKey extends string>(
  given: readonly string[] | ((entry: TEntry) => boolean),
  key: TKey,
): (entry: TEntry) => boolean {
  if (typeof given === "function") return (entry) => given(entry) === true;
  const names = new Set<string>(given);
  return (entry) => names.has(entry[key]);
}

/** The exposed tools of a context right now, in registration order. */
export function exposedTools(context: RouteContext, options: ResolvedServerOptions): Tool[] {
  return context.tools.list().filter(options.isExposed);
}
