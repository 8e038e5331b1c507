/** Replies in the real Anthropic Messages format, for loopback servers. */

let messageCount = 0;

/** A content block of an Anthropic reply. */
export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/** A `message` with the given content blocks and stop reason. */
export function anthropicReply(
  content: AnthropicBlock[],
  stopReason: string,
  usage = { input_tokens: 30, output_tokens: 12 },
) {
  messageCount += 1;
  return {
    id: `msg_test${messageCount}`,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-20250514",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

/** A `message` of plain text that ended the turn. */
export function anthropicTextReply(text: string) {
  return anthropicReply([{ type: "text", text }], "end_turn");
}

/** An Anthropic error body, as the API sends with 4xx/5xx statuses. */
export function anthropicErrorBody(type: string, message: string) {
  return { type: "error", error: { type, message } };
}
