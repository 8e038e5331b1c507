import { describe, expect, it } from "vitest";
import { LlmError, renderAnthropicTool, renderOpenAiTool, type Tool, toTool } from "../src/tool-contract.js";

const search = toTool({
  name: "web_search",
  description: "Search the web.",
  params: { query: { required: true, desc: "what to look for" }, max_results: { type: "integer" } },
  execute: () => "[]",
});

const expectedSchema = {
  type: "object",
  properties: {
    query: { type: "string", description: "what to look for" },
    max_results: { type: "integer" },
  },
  required: ["query"],
};

function foreignTool(inputSchema: Record<string, unknown>): Tool {
  return {
    name: "foreign",
    description: "",
    inputSchema,
    source: "route",
    execute: async () => ({ output: "", isError: false }),
  };
}

describe("renderers", () => {
  it("renders the OpenAI function tool shape", () => {
    expect(renderOpenAiTool(search)).toStrictEqual({
      type: "function",
      function: { name: "web_search", description: "Search the web.", parameters: expectedSchema },
    });
  });

  it("renders the Anthropic tool shape", () => {
    expect(renderAnthropicTool(search)).toStrictEqual({
      name: "web_search",
      description: "Search the web.",
      input_schema: expectedSchema,
    });
  });

  it("renders a tool without arguments with an empty object schema", () => {
    const now = toTool({ name: "now", execute: () => "" });
    expect(renderOpenAiTool(now).function.parameters).toEqual({ type: "object", properties: {} });
    expect(renderAnthropicTool(now).input_schema).toEqual({ type: "object", properties: {} });
  });

  it("gives a schema root without a type the object type", () => {
    const tool = foreignTool({ properties: { a: { type: "string" } } });
    expect(renderOpenAiTool(tool).function.parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(renderAnthropicTool(tool).input_schema).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });

  it("refuses a tool whose schema root is not an object", () => {
    const tool = foreignTool({ type: "string" });
    expect(() => renderOpenAiTool(tool)).toThrow(LlmError);
    expect(() => renderAnthropicTool(tool)).toThrow(
      `tool 'foreign': the input schema's root must be type "object" (tool arguments are a JSON object), found type "string"`,
    );
  });
});
