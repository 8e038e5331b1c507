import { describe, expect, it } from "vitest";
import { LlmError, type Tool, toTool, validateSchema, validateToolArguments } from "../src/tool-contract.js";

function toolWith(inputSchema: Record<string, unknown>, name = "search"): Tool {
  return toTool({ name, inputSchema, execute: () => "" });
}

function thrownBy(action: () => unknown): LlmError {
  try {
    action();
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error("expected an LlmError, but nothing was thrown");
}

const searchSchema = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1 },
    max_results: { type: "integer", minimum: 1, maximum: 20 },
    depth: { enum: ["basic", "advanced"] },
    tags: { type: "array", items: { type: "string" } },
    filter: {
      type: "object",
      properties: { site: { type: "string" } },
      required: ["site"],
      additionalProperties: false,
    },
  },
  required: ["query"],
  additionalProperties: false,
};

describe("validateToolArguments: draft-07 (the default)", () => {
  const search = toolWith(searchSchema);

  it("accepts valid arguments and returns them", () => {
    expect(validateToolArguments(search, { query: "cats", max_results: 3 })).toEqual({
      ok: true,
      value: { query: "cats", max_results: 3 },
    });
  });

  it("lists every failing path with its reason", () => {
    expect(validateToolArguments(search, { max_results: 2.5 })).toMatchObject({
      ok: false,
      message:
        "invalid arguments for tool 'search': must have required property 'query'; /max_results must be integer",
      issues: [
        { path: "", message: "must have required property 'query'" },
        { path: "/max_results", message: "must be integer" },
      ],
    });
    const result = validateToolArguments(search, {
      query: "",
      max_results: 50,
      depth: "deep",
      tags: ["a", 2, "c", false],
      filter: {},
    });
    expect(result).toMatchObject({
      ok: false,
      message:
        "invalid arguments for tool 'search': /query must NOT have fewer than 1 characters; " +
        "/max_results must be <= 20; " +
        '/depth must be equal to one of the allowed values ("basic", "advanced"); ' +
        "/tags/1 must be string; /tags/3 must be string; " +
        "/filter must have required property 'site'",
    });
  });

  it("drops undeclared arguments where the schema forbids them, at every depth, on a copy", () => {
    const args = { query: "cats", injected: "x", filter: { site: "a.example", extra: 1 } };
    expect(validateToolArguments(search, args)).toEqual({
      ok: true,
      value: { query: "cats", filter: { site: "a.example" } },
    });
    expect(args).toEqual({ query: "cats", injected: "x", filter: { site: "a.example", extra: 1 } });
  });

  it("keeps undeclared arguments when the schema allows them", () => {
    const open = toolWith({ type: "object", properties: { q: { type: "string" } } }, "open");
    expect(validateToolArguments(open, { q: "a", more: 1 })).toEqual({
      ok: true,
      value: { q: "a", more: 1 },
    });
  });

  it("accepts a draft-07 $schema declared with or without the trailing #", () => {
    for (const declared of [
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema",
    ]) {
      const tool = toolWith(
        { $schema: declared, type: "object", properties: { n: { type: "number" } } },
        "d7",
      );
      expect(validateToolArguments(tool, { n: "1" })).toMatchObject({
        ok: false,
        message: "invalid arguments for tool 'd7': /n must be number",
      });
    }
  });

  it("validates recursive schemas", () => {
    const tree = toolWith(
      {
        type: "object",
        properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
        required: ["label"],
      },
      "tree",
    );
    expect(
      validateToolArguments(tree, { label: "a", children: [{ label: "b", children: [{}] }] }),
    ).toMatchObject({
      ok: false,
      message:
        "invalid arguments for tool 'tree': /children/0/children/0 must have required property 'label'",
    });
  });

  it("treats format as an annotation (no formats plugin is installed)", () => {
    const mail = toolWith(
      { type: "object", properties: { to: { type: "string", format: "email" } } },
      "mail",
    );
    expect(validateToolArguments(mail, { to: "not an address" }).ok).toBe(true);
  });
});

describe("validateToolArguments: 2020-12 and 2019-09", () => {
  const tuple = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
      owner: { $ref: "#/$defs/person" },
    },
    $defs: { person: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  };

  it("uses the 2020-12 vocabulary when $schema names it", () => {
    const tool = toolWith(tuple, "plot");
    expect(validateToolArguments(tool, { point: [1, 2], owner: { name: "a" } }).ok).toBe(true);
    expect(validateToolArguments(tool, { point: [1, "2", 3], owner: {} })).toMatchObject({
      ok: false,
      message:
        "invalid arguments for tool 'plot': /point/1 must be number; /point must NOT have more than 2 items; " +
        "/owner must have required property 'name'",
    });
  });

  it("refuses 2020-12 keywords in a schema that does not declare 2020-12", () => {
    const { $schema: _declared, ...undeclared } = tuple;
    expect(thrownBy(() => toolWith(undeclared, "plot")).message).toBe(
      `the input schema of tool 'plot' is not a valid JSON Schema: strict mode: unknown keyword: "prefixItems"`,
    );
  });

  it("uses the 2019-09 vocabulary when $schema names it", () => {
    const tool = toolWith(
      {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        type: "object",
        properties: { a: { type: "string" } },
        dependentRequired: { a: ["b"] },
      },
      "dep",
    );
    expect(validateToolArguments(tool, { a: "x" })).toMatchObject({
      ok: false,
      message: "invalid arguments for tool 'dep': must have property b when property a is present",
    });
  });
});

describe("validateToolArguments: what is not an argument object", () => {
  const search = toolWith(searchSchema);

  it.each([
    [null, "null"],
    [undefined, "nothing"],
    [["cats"], "an array"],
    ['{"query":"cats"}', 'a string "{\\"query\\":\\"cats\\"}"'],
    [42, "a number"],
  ])("refuses %j", (args, found) => {
    expect(validateToolArguments(search, args)).toMatchObject({
      ok: false,
      message: `invalid arguments for tool 'search': expected a JSON object of arguments, got ${found}`,
    });
  });

  it("refuses arguments that are not plain data", () => {
    const result = validateToolArguments(search, { query: () => "cats" });
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toMatch(
      /^invalid arguments for tool 'search': arguments must be plain JSON data \(/,
    );
  });

  it("reports, without throwing, a tool whose schema cannot be compiled", () => {
    const broken: Tool = {
      name: "broken",
      description: "",
      inputSchema: { type: "object", properties: { a: { type: "text" } } },
      source: "route",
      execute: async () => ({ output: "", isError: false }),
    };
    const result = validateToolArguments(broken, {});
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toMatch(
      /^the input schema of tool 'broken' is not a valid JSON Schema: schema is invalid: /,
    );
  });
});

describe("validateSchema", () => {
  it("accepts a valid schema", () => {
    expect(() =>
      validateSchema({ type: "object", properties: { a: { type: "string" } } }, "ok"),
    ).not.toThrow();
  });

  it("refuses an invalid schema, naming the tool", () => {
    const error = thrownBy(() => validateSchema({ type: "object", required: "a" }, "bad"));
    expect(error.code).toBe("TOOL_INVALID");
    expect(error.message).toBe(
      "the input schema of tool 'bad' is not a valid JSON Schema: schema is invalid: data/required must be array",
    );
  });

  it("refuses an unknown keyword", () => {
    expect(thrownBy(() => validateSchema({ type: "object", example: {} }, "n")).message).toBe(
      `the input schema of tool 'n' is not a valid JSON Schema: strict mode: unknown keyword: "example"`,
    );
  });

  it("refuses a $ref it cannot resolve", () => {
    const error = thrownBy(() =>
      validateSchema({ type: "object", properties: { a: { $ref: "#/$defs/x" } } }),
    );
    expect(error.message).toMatch(
      /^the input schema is not a valid JSON Schema: can't resolve reference #\/\$defs\/x/,
    );
  });

  it("refuses a draft it does not support", () => {
    const schema = { $schema: "http://json-schema.org/draft-04/schema#", type: "object" };
    expect(thrownBy(() => validateSchema(schema, "old")).message).toBe(
      `the input schema of tool 'old' declares an unsupported $schema "http://json-schema.org/draft-04/schema#": ` +
        "use draft-07 (the default), 2019-09 or 2020-12",
    );
  });

  it("lets two tools use the same $id", () => {
    const first = toolWith(
      { $id: "https://example.com/args", type: "object", properties: { a: { type: "string" } } },
      "a",
    );
    const second = toolWith(
      { $id: "https://example.com/args", type: "object", properties: { b: { type: "number" } } },
      "b",
    );
    expect(validateToolArguments(first, { a: 1 }).ok).toBe(false);
    expect(validateToolArguments(second, { b: 1 }).ok).toBe(true);
  });
});
