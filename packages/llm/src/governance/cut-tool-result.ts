/** Default longest tool result the model reads, in characters. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 32_000;

/**
 * `output` when it is at most `limit` characters; else its first `limit` characters (never half a
 * surrogate pair) and a note the model reads saying how much was cut and why.
 */
export function cutToolResult(output: string, limit: number, toolName: string): string {
  if (output.length <= limit) return output;
  let end = limit;
  const last = output.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const cut = output.length - end;
  return (
    `${output.slice(0, end)}\n[result of tool '${toolName}' cut: ${cut} of ${output.length} characters ` +
    `were left out because a tool result may hold at most ${limit} characters]`
  );
}
