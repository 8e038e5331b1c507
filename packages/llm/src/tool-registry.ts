import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import type { ToolCallArguments, ToolValue } from "./adapter/create-tool.js";
import { describeValue } from "./adapter/describe-value.js";
import {
  type OtherToolValue,
  type ToolObject,
  type ToolParamsObject,
  toTool,
  type UntypedToolObject,
} from "./adapter/to-tool.js";
import { LlmError } from "./errors.js";
import type { FromToolParams, ToolParams } from "./schema/params-shorthand.js";
import type { SchemaInput, ToolInputSchema } from "./schema/schema-type.js";
import { callTool } from "./tool-call.js";

/** Unknown names listed one by one in a TOOL_NOT_FOUND message; the rest are counted. */
const MAX_NAMED_MISSING = 10;

import type { Tool, ToolCallContext } from "./tool-types.js";

/**
 * The argument and result types of tools known by name, for `context.tools.call("name", args)`.
 * Empty here; a program adds its tools by declaration merging:
 *
 * ```ts
 * declare module "@routekit/llm" {
 *   interface LlmToolTypes {
 *     get_weather: ToolTypes<typeof weatherInput, string>;
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface LlmToolTypes {}

/** One entry of `LlmToolTypes`: what a tool accepts (from its schema) and what it produces. */
export interface ToolTypes<TSchema extends ToolInputSchema, TOutput = unknown> {
  input: SchemaInput<TSchema>;
  output: TOutput;
}

/** The arguments `call(name, ...)` takes: typed for names in `LlmToolTypes`, an object otherwise. */
export type ToolArgumentsFor<TName extends string> = TName extends keyof LlmToolTypes
  ? LlmToolTypes[TName] extends { input: infer TInput }
    ? TInput
    : Record<string, unknown>
  : Record<string, unknown>;

/** What `call(name, ...)` resolves with: typed for names in `LlmToolTypes`, unknown otherwise. */
export type ToolOutputFor<TName extends string> = TName extends keyof LlmToolTypes
  ? LlmToolTypes[TName] extends { output: infer TOutput }
    ? TOutput
    : unknown
  : unknown;

/** What changed in a registry: a tool was registered or unregistered. */
export interface ToolRegistryChange {
  readonly type: "registered" | "unregistered";
  readonly tool: Tool;
}

/**
 * The tools one context can call, by name. Every value registered goes through `toTool`; names are
 * unique. Make one per context: nothing here is shared between registries.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  readonly #listeners = new Set<(change: ToolRegistryChange) => void>();

  /** A registry holding `tools` (each adapted with `toTool`). */
  constructor(tools: Iterable<unknown> = []) {
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adapts `value` with `toTool` and adds it; a name already taken is `TOOL_DUPLICATE`. Returns the
   * tool, typed from its schema: a handle for `call(tool, args)`.
   */
  register<TInput, TOutput>(value: Tool<TInput, TOutput>): Tool<TInput, TOutput>;
  register<const TParams extends ToolParams, TOutput>(
    value: ToolParamsObject<TParams, TOutput>,
  ): Tool<FromToolParams<TParams, "input">, ToolValue<TOutput>>;
  register<const TSchema extends ToolInputSchema, TOutput>(
    value: ToolObject<TSchema, TOutput>,
  ): Tool<ToolCallArguments<TSchema>, ToolValue<TOutput>>;
  register<TOutput>(value: UntypedToolObject<TOutput>): Tool<Record<string, unknown>, ToolValue<TOutput>>;
  register<TValue>(value: TValue & OtherToolValue<TValue>): Tool;
  register(value: unknown): Tool {
    const tool = toTool(value);
    const existing = this.#tools.get(tool.name);
    if (existing !== undefined) {
      throw new LlmError(
        "TOOL_DUPLICATE",
        `a tool named '${tool.name}' is already registered (source: ${existing.source}); ` +
          `unregister it first or choose another name`,
      );
    }
    this.#tools.set(tool.name, tool);
    this.#emit({ type: "registered", tool });
    return tool;
  }

  /**
   * Calls a tool outside any LLM step: validates `args` against its schema (an invalid call rejects
   * with `ToolExecutionError` `TOOL_ARGUMENTS_INVALID` listing every failing path), runs it and
   * resolves with its value (a tool route's reply body, a handler's return value, or the output
   * text). A failed call rejects with its error. Typed by a tool handle, or by the name's entry in
   * `LlmToolTypes`.
   */
  call<TInput, TOutput>(
    tool: Tool<TInput, TOutput>,
    args: TInput,
    context?: ToolCallContext,
  ): Promise<TOutput>;
  call<TName extends string>(
    name: TName,
    args: ToolArgumentsFor<TName>,
    context?: ToolCallContext,
  ): Promise<ToolOutputFor<TName>>;
  call(target: string | Tool, args: unknown, context?: ToolCallContext): Promise<unknown> {
    if (typeof target === "string") {
      const tool = this.#tools.get(target);
      if (tool === undefined) return Promise.reject(this.#notFound([target]));
      return callTool(tool, args, context);
    }
    return callTool(toTool(target), args, context);
  }

  /** Removes the tool named `name`; false when there was none. */
  unregister(name: string): boolean {
    const tool = this.#tools.get(name);
    if (tool === undefined) return false;
    this.#tools.delete(name);
    this.#emit({ type: "unregistered", tool });
    return true;
  }

  /**
   * Calls `listener` after every tool registered or unregistered (an MCP server sends
   * `notifications/tools/list_changed` from it). Returns a function that removes the listener. A
   * listener that throws does not stop the change nor the other listeners.
   */
  onChange(listener: (change: ToolRegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #emit(change: ToolRegistryChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own: the registry has already changed.
      }
    }
  }

  /** The tool named `name`, if registered. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** True when a tool named `name` is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Every tool, in registration order. */
  list(): Tool[] {
    return [...this.#tools.values()];
  }

  /** Every tool name, in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#tools.size;
  }

  /**
   * The tools named in `names` (each once, in the order asked), or every tool for `"*"`. An unknown
   * name is `TOOL_NOT_FOUND`, listing the known names and the nearest one.
   */
  resolve(names: readonly string[] | "*"): Tool[] {
    if (names === "*") return this.list();
    if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) {
      throw new LlmError(
        "OPTION_INVALID",
        `tool names must be "*" or an array of names, got ${describeValue(names)}`,
      );
    }
    const missing = names.filter((name) => !this.#tools.has(name));
    if (missing.length > 0) throw this.#notFound(missing);
    return [...new Set(names)].map((name) => this.#tools.get(name) as Tool);
  }

  #notFound(missing: readonly string[]): LlmError {
    const known = this.names();
    const knownText = known.length === 0 ? "no tools are registered" : `known tools: ${known.join(", ")}`;
    const details = missing.slice(0, MAX_NAMED_MISSING).map((name) => {
      return `'${truncateForMessage(name)}'${didYouMean(name, known, { quoted: true })}`;
    });
    const noun = missing.length === 1 ? "unknown tool" : "unknown tools";
    const more = missing.length > MAX_NAMED_MISSING ? ` and ${missing.length - MAX_NAMED_MISSING} more` : "";
    return new LlmError("TOOL_NOT_FOUND", `${noun} ${details.join(", ")}${more}; ${knownText}`);
  }
}
