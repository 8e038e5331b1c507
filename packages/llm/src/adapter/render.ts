import { normalizeInputSchema } from "../schema/input-schema.js";
import type { JsonSchema, Tool } from "../tool-types.js";

/** A tool as OpenAI Chat Completions (and compatible servers) expect it in `tools`. */
export interface OpenAiToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A tool as the Anthropic Messages API expects it in `tools`. */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** Renders a tool as an OpenAI function tool; the parameters root is `type: "object"`. */
export function renderOpenAiTool(tool: Tool): OpenAiToolDefinition {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: normalizeInputSchema(tool.inputSchema, tool.name),
    },
  };
}

/** Renders a tool as an Anthropic tool; the `input_schema` root is `type: "object"`. */
export function renderAnthropicTool(tool: Tool): AnthropicToolDefinition {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: normalizeInputSchema(tool.inputSchema, tool.name),
  };
}
