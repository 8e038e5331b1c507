import { describe, expect, it } from "vitest";
import { LlmError, type Tool, toTool, toTools } from "../src/tool-contract.js";

function thrownBy(action: () => unknown): LlmError {
  try {
    action();
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error("expected an LlmError, but nothing was thrown");
}

describe("toTool: the shapes it adapts", () => {
  it("adapts a seed-style inline object with the params shorthand", async () => {
    const definition = {
      name: "echo",
      description: "Echo the input back",
      params: {
        msg: { type: "string", required: true, desc: "the message" },
        times: { type: "integer", description: "how often" },
        tags: { type: "array", items: { type: "string" } },
        mode: { enum: ["loud", "quiet"] },
        note: {},
      },
      execute: (args: Record<string, unknown>) => String(args.msg),
    };
    const tool = toTool(definition);
    expect(tool.name).toBe("echo");
    expect(tool.description).toBe("Echo the input back");
    expect(tool.source).toBe("native");
    expect(tool.original).toBe(definition);
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        msg: { type: "string", description: "the message" },
        times: { type: "integer", description: "how often" },
        tags: { type: "array", items: { type: "string" } },
        mode: { type: "string", enum: ["loud", "quiet"] },
        note: { type: "string" },
      },
      required: ["msg"],
    });
    expect(tool.inputSchema).not.toHaveProperty("additionalProperties");
    expect(await tool.execute({ msg: "hi" })).toEqual({ output: "hi", isError: false });
  });

  it("accepts `handler` and a full `parameters` schema, kept as given", async () => {
    const parameters = {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    };
    const tool = toTool({
      name: "add",
      parameters,
      handler: (args: Record<string, unknown>) => Number(args.a) + Number(args.b),
    });
    expect(tool.inputSchema).toBe(parameters);
    expect(tool.description).toBe("");
    expect(await tool.execute({ a: 2, b: 3 })).toEqual({ output: "5", isError: false });
  });

  it("treats `params` holding a JSON Schema as the schema", () => {
    const params = { type: "object", properties: { q: { type: "string" } } };
    expect(toTool({ name: "find", params, execute: () => "" }).inputSchema).toBe(params);
  });

  it("gives a tool without a schema an empty object schema", () => {
    expect(toTool({ name: "now", execute: () => "noon" }).inputSchema).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("adds the object type to a schema root that has none", () => {
    const tool = toTool({
      name: "t",
      inputSchema: { properties: { x: { type: "string" } } },
      execute: () => "",
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: { x: { type: "string" } } });
  });

  it("adapts a duck-typed class instance with `call`, keeping `this`", async () => {
    class Weather {
      readonly name = "weather";
      readonly description = "Current weather for a city";
      readonly params = { city: { type: "string", required: true } };
      readonly unit = "C";
      call(args: Record<string, unknown>) {
        return { city: args.city, temperature: 21, unit: this.unit };
      }
    }
    const instance = new Weather();
    const tool = toTool(instance);
    expect(tool.original).toBe(instance);
    expect(tool.description).toBe("Current weather for a city");
    expect(await tool.execute({ city: "Oslo" })).toEqual({
      output: '{"city":"Oslo","temperature":21,"unit":"C"}',
      isError: false,
    });
  });

  it("prefers `execute` over `call` on a duck-typed object", async () => {
    const tool = toTool({ name: "both", execute: () => "execute", call: () => "call" });
    expect((await tool.execute({})).output).toBe("execute");
  });

  it("passes the arguments and the call context to the handler", async () => {
    const seen: unknown[] = [];
    const tool = toTool({
      name: "spy",
      params: { q: {} },
      execute: (args: unknown, context: unknown) => {
        seen.push(args, context);
        return "ok";
      },
    });
    await tool.execute({ q: "x" }, { callId: "call_1", headers: { tenant: "a" } });
    expect(seen).toEqual([{ q: "x" }, { callId: "call_1", headers: { tenant: "a" } }]);
  });

  it("instantiates a class whose prototype has execute, with no arguments", async () => {
    class Clock {
      readonly name = "clock";
      execute() {
        return "noon";
      }
    }
    const tool = toTool(Clock);
    expect(tool.name).toBe("clock");
    expect(tool.original).toBeInstanceOf(Clock);
    expect(await tool.execute({})).toEqual({ output: "noon", isError: false });
  });

  it("instantiates a class whose handler is an instance field", async () => {
    class Dice {
      readonly name = "dice";
      readonly execute = () => 4;
    }
    expect((await toTool(Dice).execute({})).output).toBe("4");
  });

  it("is idempotent: an adapted tool comes back as is", () => {
    const tool = toTool({ name: "same", execute: () => "" });
    expect(toTool(tool)).toBe(tool);
    expect(toTool(toTool(tool))).toBe(tool);
  });

  it("returns a tool made elsewhere (route or http) as is, after checking it", async () => {
    const routeTool: Tool = {
      name: "lookup",
      description: "A route tool",
      inputSchema: { type: "object", properties: {} },
      source: "route",
      execute: async () => ({ output: "from the route", isError: false }),
    };
    expect(toTool(routeTool)).toBe(routeTool);
    const badName = { ...routeTool, name: "bad name" };
    expect(thrownBy(() => toTool(badName)).code).toBe("TOOL_INVALID");
    const badSchema = { ...routeTool, inputSchema: { type: "array" } };
    expect(thrownBy(() => toTool(badSchema)).message).toBe(
      `tool 'lookup': the input schema's root must be type "object" (tool arguments are a JSON object), found type "array"`,
    );
  });
});

describe("toTool: what it refuses", () => {
  const expected = "expected an object with name and execute/call, a tool class, or a route tool";

  it.each([
    [42, `cannot adapt number 42 into a tool: ${expected}`],
    [null, `cannot adapt null into a tool: ${expected}`],
    [undefined, `cannot adapt undefined into a tool: ${expected}`],
    ["search", `cannot adapt string "search" into a tool: ${expected}`],
    [true, `cannot adapt boolean true into a tool: ${expected}`],
    [[1, 2], `cannot adapt array of 2 items into a tool: ${expected}`],
    [() => "x", `cannot adapt function (anonymous) into a tool: ${expected}`],
  ])("refuses %o", (value, message) => {
    const error = thrownBy(() => toTool(value));
    expect(error.code).toBe("TOOL_INVALID");
    expect(error.message).toBe(message);
  });

  it("refuses an object without a name", () => {
    expect(thrownBy(() => toTool({ description: "d", execute: () => "" })).message).toBe(
      "cannot adapt object { description, execute } into a tool: expected a string 'name', found undefined",
    );
    expect(thrownBy(() => toTool({ name: 7, execute: () => "" })).message).toBe(
      "cannot adapt object { name, execute } into a tool: expected a string 'name', found number 7",
    );
  });

  it("refuses an object with a name but no execute or call", () => {
    expect(thrownBy(() => toTool({ name: "search", description: "d" })).message).toBe(
      "cannot adapt object { name, description } into a tool: tool 'search' has no execute, handler or call function",
    );
    expect(thrownBy(() => toTool({ name: "search", execute: "run" })).message).toBe(
      `tool 'search': 'execute' must be a function, got string "run"`,
    );
  });

  it("refuses a class instance without a name, naming the class", () => {
    class Nameless {
      execute() {
        return "";
      }
    }
    expect(thrownBy(() => toTool(Nameless)).message).toBe(
      "cannot adapt Nameless instance {} into a tool: expected a string 'name', found undefined",
    );
  });

  it("refuses a class that cannot be built with no arguments", () => {
    class NeedsKey {
      readonly name = "needs_key";
      constructor(key?: string) {
        if (key === undefined) throw new TypeError("key is required");
      }
      execute() {
        return "";
      }
    }
    const error = thrownBy(() => toTool(NeedsKey));
    expect(error.message).toBe(
      "cannot adapt class NeedsKey into a tool: instantiating it with no arguments failed: TypeError: key is required",
    );
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it.each([["has space"], [""], ["x".repeat(65)], ["dots.not.allowed"]])(
    "refuses the tool name %j",
    (name) => {
      const error = thrownBy(() => toTool({ name, execute: () => "" }));
      expect(error.code).toBe("TOOL_INVALID");
      expect(error.message).toBe(
        `invalid tool name ${JSON.stringify(name)}: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (1 to 64 letters, digits, '_' or '-')`,
      );
    },
  );

  it("accepts a 64-character name", () => {
    expect(toTool({ name: "a".repeat(64), execute: () => "" }).name).toHaveLength(64);
  });

  it("refuses a description that is not text", () => {
    expect(thrownBy(() => toTool({ name: "d", description: 5, execute: () => "" })).message).toBe(
      "tool 'd': description must be a string, got number",
    );
  });

  it("refuses two schemas at once", () => {
    const tool = { name: "two", params: { a: {} }, inputSchema: { type: "object" }, execute: () => "" };
    expect(thrownBy(() => toTool(tool)).message).toBe(
      "tool 'two' gives both 'inputSchema' and 'params': give one schema",
    );
  });

  it("refuses a params entry that is not an object", () => {
    expect(thrownBy(() => toTool({ name: "p", params: { q: "string" }, execute: () => "" })).message).toBe(
      "tool 'p' param 'q': expected an object like { type, description, required }, got string",
    );
    expect(
      thrownBy(() => toTool({ name: "p", params: { q: { required: "yes" } }, execute: () => "" })).message,
    ).toBe("tool 'p' param 'q': 'required' must be true or false, got string");
  });

  it("refuses a schema whose root is not an object", () => {
    const error = thrownBy(() => toTool({ name: "s", inputSchema: { type: "string" }, execute: () => "" }));
    expect(error.message).toBe(
      `tool 's': the input schema's root must be type "object" (tool arguments are a JSON object), found type "string"`,
    );
  });

  it("refuses an input schema that is not an object", () => {
    expect(thrownBy(() => toTool({ name: "s", inputSchema: "object", execute: () => "" })).message).toBe(
      "tool 's': the input schema must be a JSON Schema object or a Standard Schema, got a string",
    );
  });

  it("refuses, at adaptation time, a schema ajv cannot compile", () => {
    const unknownKeyword = { type: "object", properties: { q: { type: "string", examplez: ["x"] } } };
    expect(
      thrownBy(() => toTool({ name: "k", inputSchema: unknownKeyword, execute: () => "" })).message,
    ).toBe(
      `the input schema of tool 'k' is not a valid JSON Schema: strict mode: unknown keyword: "examplez"`,
    );
    const badType = { type: "object", properties: { q: { type: "text" } } };
    const error = thrownBy(() => toTool({ name: "b", inputSchema: badType, execute: () => "" }));
    expect(error.code).toBe("TOOL_INVALID");
    expect(error.message).toMatch(
      /^the input schema of tool 'b' is not a valid JSON Schema: schema is invalid: /,
    );
  });
});

describe("toTools", () => {
  it("adapts a list into a map by name", () => {
    const tools = toTools([
      { name: "a", execute: () => "" },
      { name: "b", call: () => "" },
    ]);
    expect([...tools.keys()]).toEqual(["a", "b"]);
    expect(tools.get("b")?.source).toBe("native");
  });

  it("rejects duplicate names, naming the name and both positions", () => {
    const error = thrownBy(() =>
      toTools([
        { name: "echo", execute: () => "" },
        { name: "other", execute: () => "" },
        { name: "echo", call: () => "" },
      ]),
    );
    expect(error.code).toBe("TOOL_DUPLICATE");
    expect(error.message).toBe("duplicate tool name 'echo': tools[0] and tools[2] both use it");
  });

  it("names the position of an item it cannot adapt", () => {
    const error = thrownBy(() => toTools([{ name: "a", execute: () => "" }, 42]));
    expect(error.code).toBe("TOOL_INVALID");
    expect(error.message).toBe(
      "tools[1]: cannot adapt number 42 into a tool: expected an object with name and execute/call, a tool class, or a route tool",
    );
  });

  it("refuses something that is not a list", () => {
    expect(thrownBy(() => toTools({ name: "a" } as unknown as unknown[])).message).toBe(
      "toTools expects an array of tools, got object { name }",
    );
  });
});
