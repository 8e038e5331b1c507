import { describeValue } from "./adapter/describe-value.js";
import { toTool } from "./adapter/to-tool.js";
import { LlmError } from "./errors.js";
import type { Tool } from "./tool-types.js";

/**
 * The tools one context can call, by name. Every value registered goes through `toTool`; names are
 * unique. Make one per context: nothing here is shared between registries.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  /** A registry holding `tools` (each adapted with `toTool`). */
  constructor(tools: Iterable<unknown> = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adapts `value` with `toTool` and adds it; a name already taken is `TOOL_DUPLICATE`. */
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
    return tool;
  }

  /** Removes the tool named `name`; false when there was none. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
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
    const details = missing.map((name) => {
      const match = nearestName(name, known);
      return match === undefined ? `'${name}'` : `'${name}' (did you mean '${match}'?)`;
    });
    const noun = missing.length === 1 ? "unknown tool" : "unknown tools";
    return new LlmError("TOOL_NOT_FOUND", `${noun} ${details.join(", ")}; ${knownText}`);
  }
}

/** The candidate nearest to `name` by edit distance (case-insensitive), when it is close enough. */
function nearestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row++) {
    const current = [row];
    for (let column = 1; column <= to.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (from[row - 1] === to[column - 1] ? 0 : 1);
      current[column] = Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[to.length] ?? 0;
}
