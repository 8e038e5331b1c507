import { describe, expect, it } from "vitest";
import { LlmError, type Tool, ToolRegistry, toTool } from "../src/tool-contract.js";

function thrownBy(action: () => unknown): LlmError {
  try {
    action();
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error("expected an LlmError, but nothing was thrown");
}

function registryWith(...names: string[]): ToolRegistry {
  return new ToolRegistry(names.map((name) => ({ name, execute: () => name })));
}

describe("ToolRegistry", () => {
  it("registers any shape through toTool and finds it by name", async () => {
    class Clock {
      readonly name = "clock";
      execute() {
        return "noon";
      }
    }
    const registry = new ToolRegistry();
    const search = registry.register({ name: "search", params: { query: {} }, execute: () => "[]" });
    const clock = registry.register(Clock);
    const ready = toTool({ name: "ready", call: () => "yes" });
    expect(registry.register(ready)).toBe(ready);

    expect(registry.get("search")).toBe(search);
    expect(registry.has("clock")).toBe(true);
    expect(registry.has("nothing")).toBe(false);
    expect(registry.get("nothing")).toBeUndefined();
    expect(registry.names()).toEqual(["search", "clock", "ready"]);
    expect(registry.list()).toEqual([search, clock, ready]);
    expect(registry.size).toBe(3);
    expect(await registry.get("clock")?.execute({})).toEqual({ output: "noon", isError: false });
  });

  it("keeps a tool made elsewhere as it is", () => {
    const routeTool: Tool = {
      name: "lookup",
      description: "",
      inputSchema: { type: "object" },
      source: "route",
      execute: async () => ({ output: "", isError: false }),
    };
    expect(new ToolRegistry().register(routeTool)).toBe(routeTool);
  });

  it("refuses a second tool with the same name", () => {
    const registry = registryWith("search");
    const error = thrownBy(() => registry.register({ name: "search", call: () => "" }));
    expect(error.code).toBe("TOOL_DUPLICATE");
    expect(error.message).toBe(
      "a tool named 'search' is already registered (source: native); unregister it first or choose another name",
    );
    expect(registry.size).toBe(1);
  });

  it("refuses what toTool refuses, registering nothing", () => {
    const registry = new ToolRegistry();
    expect(thrownBy(() => registry.register(42)).code).toBe("TOOL_INVALID");
    expect(registry.size).toBe(0);
  });

  it("unregisters by name, after which the name is free again", () => {
    const registry = registryWith("search");
    expect(registry.unregister("search")).toBe(true);
    expect(registry.unregister("search")).toBe(false);
    expect(registry.has("search")).toBe(false);
    expect(registry.register({ name: "search", execute: () => "" }).name).toBe("search");
  });

  it("resolves names in the order asked, each once, and '*' to every tool", () => {
    const registry = registryWith("a", "b", "c");
    expect(registry.resolve(["c", "a", "c"]).map((tool) => tool.name)).toEqual(["c", "a"]);
    expect(registry.resolve("*").map((tool) => tool.name)).toEqual(["a", "b", "c"]);
    expect(registry.resolve([])).toEqual([]);
  });

  it("names an unknown tool, the nearest match and the known names", () => {
    const registry = registryWith("web_search", "math_eval", "json_path");
    const error = thrownBy(() => registry.resolve(["web_serch"]));
    expect(error.code).toBe("TOOL_NOT_FOUND");
    expect(error.message).toBe(
      "unknown tool 'web_serch' (did you mean 'web_search'?); known tools: web_search, math_eval, json_path",
    );
  });

  it("lists every unknown name, suggesting only close ones", () => {
    const registry = registryWith("web_search", "math_eval");
    expect(thrownBy(() => registry.resolve(["math_evl", "weather", "web_search"])).message).toBe(
      "unknown tools 'math_evl' (did you mean 'math_eval'?), 'weather'; known tools: web_search, math_eval",
    );
  });

  it("says when no tools are registered at all", () => {
    expect(thrownBy(() => new ToolRegistry().resolve(["search"])).message).toBe(
      "unknown tool 'search'; no tools are registered",
    );
  });

  it("refuses a names argument that is neither '*' nor a list of names", () => {
    const registry = registryWith("a");
    const error = thrownBy(() => registry.resolve("a" as unknown as "*"));
    expect(error.code).toBe("OPTION_INVALID");
    expect(error.message).toBe(`tool names must be "*" or an array of names, got string "a"`);
    expect(thrownBy(() => registry.resolve([1] as unknown as string[])).code).toBe("OPTION_INVALID");
  });

  it("keeps registries apart: one per context, nothing shared", () => {
    const first = registryWith("search");
    const second = new ToolRegistry();
    expect(second.has("search")).toBe(false);
    expect(second.register({ name: "search", execute: () => "other" })).not.toBe(first.get("search"));
  });

  it("refuses a duplicate among the tools given to the constructor", () => {
    expect(thrownBy(() => registryWith("a", "a")).code).toBe("TOOL_DUPLICATE");
  });
});
