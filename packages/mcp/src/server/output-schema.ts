import { createTool, type Tool } from "@routekit/llm";
import { type JsonSchema, type ToolInputSchema, validateToolArgumentsAsync } from "@routekit/llm/tool";

/** A tool's declared output: the JSON Schema MCP clients see and a validator for the value. */
export interface ToolOutput {
  readonly schema: JsonSchema;
  /** A tool whose input schema is the output schema: the llm package's validator checks with it. */
  readonly checker: Tool;
}

/**
 * The output schema a tool declares, if any: the server's `outputSchemas[name]`, else an
 * `outputSchema` on the tool itself or on the object it was adapted from (`context.tools.register({
 * name, inputSchema, outputSchema, execute })`). A JSON Schema or a Standard Schema; its root must be
 * `type: "object"`, as MCP's `structuredContent` is an object. Made once per tool.
 */
export function outputOf(
  tool: Tool,
  declared: Readonly<Record<string, ToolInputSchema>> | undefined,
  cache: WeakMap<Tool, ToolOutput | null>,
): ToolOutput | undefined {
  const cached = cache.get(tool);
  if (cached !== undefined) return cached ?? undefined;
  const given = declared?.[tool.name] ?? ownOutputSchema(tool) ?? ownOutputSchema(tool.original);
  let output: ToolOutput | null = null;
  if (given !== undefined) {
    // createTool converts a Standard Schema, checks the schema compiles and that its root is an object.
    const checker = createTool({
      name: tool.name,
      description: "output",
      inputSchema: given,
      execute: () => undefined,
    });
    output = { schema: checker.inputSchema, checker };
  }
  cache.set(tool, output);
  return output ?? undefined;
}

/** Checks a result's value against the output schema: the validated copy, or what is wrong. */
export async function checkOutput(
  output: ToolOutput,
  value: unknown,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; message: string }> {
  const checked = await validateToolArgumentsAsync(output.checker, value);
  if (checked.ok) return { ok: true, value: checked.value as Record<string, unknown> };
  const reason = checked.message.replace(/^invalid arguments for tool '[^']*': /, "");
  return {
    ok: false,
    message: `tool '${output.checker.name}' returned a value that does not match its output schema: ${reason}`,
  };
}

function ownOutputSchema(value: unknown): ToolInputSchema | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const schema = (value as { outputSchema?: unknown }).outputSchema;
  return typeof schema === "object" && schema !== null ? (schema as ToolInputSchema) : undefined;
}
