import { ToolExecutionError } from "./errors.js";
import { validateToolArgumentsAsync } from "./schema/validate-arguments.js";
import type { Tool, ToolCallContext } from "./tool-types.js";

/**
 * Validates `args` for `tool`, runs it and resolves with its value (the output text when it has
 * none). Invalid arguments reject with `TOOL_ARGUMENTS_INVALID` listing each failing path; a failed
 * call rejects with the error behind it, or a `ToolExecutionError` carrying its output.
 */
export async function callTool(tool: Tool, args: unknown, context: ToolCallContext = {}): Promise<unknown> {
  const checked = await validateToolArgumentsAsync(tool, args);
  if (!checked.ok) {
    throw new ToolExecutionError(checked.message, {
      toolName: tool.name,
      code: "TOOL_ARGUMENTS_INVALID",
      issues: checked.issues,
    });
  }
  const result = await tool.execute(checked.value, context);
  if (result.isError) {
    throw (
      result.error ??
      new ToolExecutionError(`tool '${tool.name}' failed: ${result.output}`, { toolName: tool.name })
    );
  }
  return "value" in result ? result.value : result.output;
}
