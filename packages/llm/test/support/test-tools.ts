import type { Tool, ToolCallContext, ToolResult } from "../../src/tool-types.js";

/** A plain object implementing Tool, built from a name, a schema and an execute function. */
export function nativeTool(
  name: string,
  inputSchema: Record<string, unknown>,
  execute: (args: Record<string, unknown>, context?: ToolCallContext) => Promise<ToolResult>,
): Tool {
  return { name, description: `Test tool ${name}.`, inputSchema, source: "native", execute };
}

const citySchema = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};

/** `get_weather {city}` answers "<city>: 21C, sunny" after `delayMs`. */
export function weatherTool(delayMs: (city: string) => number = () => 0): Tool {
  return nativeTool("get_weather", citySchema, async (args) => {
    const city = String(args.city);
    await new Promise((resolve) => setTimeout(resolve, delayMs(city)));
    return { output: `${city}: 21C, sunny`, isError: false };
  });
}

/** `add {a, b}` answers the sum. */
export function addTool(): Tool {
  return nativeTool(
    "add",
    {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    async (args) => ({ output: String(Number(args.a) + Number(args.b)), isError: false }),
  );
}

/** Builds a Map of tools by name, as the loop expects. */
export function toolMap(...tools: Tool[]): Map<string, Tool> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}
