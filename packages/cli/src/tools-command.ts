import type { RouteContext } from "@routekit/core";
import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { describeToolError } from "@routekit/llm/internal";
import { CliError } from "./cli-error.js";

/** The tools of a started context, one per line: name, source, description, input schema. */
export function listTools(context: RouteContext): string {
  const lines: string[] = [];
  for (const tool of context.tools.list()) {
    lines.push(`${tool.name} (${tool.source})${tool.description === "" ? "" : `: ${tool.description}`}`);
    lines.push(`  input: ${JSON.stringify(tool.inputSchema)}`);
  }
  return lines.length === 0 ? "the routes define no tools\n" : `${lines.join("\n")}\n`;
}

/**
 * Calls tool `name` as a model's call would reach it (schema check, error results) and answers
 * the output and whether it is an error; an unknown name is a CliError naming the nearest one.
 */
export async function callTool(
  context: RouteContext,
  name: string,
  args: unknown,
): Promise<{ output: string; isError: boolean }> {
  const known = context.tools.list().map((tool) => tool.name);
  const tool = context.tools.get(name);
  if (tool === undefined) {
    const listed = known.length === 0 ? "the routes define no tools" : `known tools: ${known.join(", ")}`;
    throw new CliError(
      `tools call: unknown tool '${truncateForMessage(name)}'${didYouMean(name, known, { quoted: true })}; ${listed}`,
      2,
    );
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new CliError(
      `tools call ${name}: --args expects a JSON object (found ${Array.isArray(args) ? "an array" : typeof args})`,
      2,
    );
  }
  const result = await tool.execute(args as Record<string, unknown>, { timeoutMs: 60_000 });
  // A failure reads as a model would read it under the "safe" policy (no internal addresses or paths).
  if (result.isError && result.error !== undefined) {
    return {
      output: JSON.stringify({ error: describeToolError(result.error, name, "safe") }),
      isError: true,
    };
  }
  return { output: result.output, isError: result.isError };
}
