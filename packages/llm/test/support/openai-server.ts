/** Replies in the real Chat Completions format, for loopback servers. */

let completionCount = 0;

/** A `chat.completion` whose message is plain text. */
export function openAiTextReply(text: string, usage = { prompt_tokens: 10, completion_tokens: 5 }) {
  return completion({ role: "assistant", content: text, refusal: null }, "stop", usage);
}

/** A `chat.completion` asking for tool calls; `arguments` is the raw JSON text the model wrote. */
export function openAiToolCallReply(
  calls: Array<{ id: string; name: string; arguments: string }>,
  content: string | null = null,
  usage = { prompt_tokens: 20, completion_tokens: 8 },
) {
  return completion(
    {
      role: "assistant",
      content,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
      refusal: null,
    },
    "tool_calls",
    usage,
  );
}

function completion(
  message: Record<string, unknown>,
  finishReason: string,
  usage: { prompt_tokens: number; completion_tokens: number },
) {
  completionCount += 1;
  return {
    id: `chatcmpl-test${completionCount}`,
    object: "chat.completion",
    created: 1_760_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    system_fingerprint: "fp_test",
  };
}
