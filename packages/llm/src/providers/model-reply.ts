import type {
  AssistantMessage,
  ModelResponse,
  ModelStopReason,
  TokenUsage,
  ToolCall,
} from "../model-types.js";
import { withResponseId } from "./wire-shape.js";

/** What a provider's reply reader (whole or streamed) found in one answer. */
export interface ReplyParts {
  /** The provider's id of the response; kept when it is a non-empty string. */
  responseId: unknown;
  text: string;
  toolCalls: ToolCall[];
  /** The provider's own stop or finish reason ("" when it sent none). */
  rawStopReason: string;
  /** How this provider's reasons read as a `ModelStopReason`. */
  mapStopReason: (raw: string) => ModelStopReason;
  usage: TokenUsage;
  model: string;
  /** The turn as the provider's API wants it sent back (kept on the assistant message). */
  raw: unknown;
}

/**
 * The `ModelResponse` of one answer, read the same way for every provider: an answer that asks for
 * tools stops with `tool_calls` whatever reason the provider gave, and the assistant message to
 * append carries the tool calls and the provider's raw turn.
 */
export function modelReply(parts: ReplyParts): ModelResponse {
  const { text, toolCalls, rawStopReason } = parts;
  const assistant: AssistantMessage = { role: "assistant", content: text, raw: parts.raw };
  if (toolCalls.length > 0) assistant.toolCalls = toolCalls;
  return withResponseId(parts.responseId, {
    text,
    toolCalls,
    stopReason: toolCalls.length > 0 ? "tool_calls" : parts.mapStopReason(rawStopReason),
    rawStopReason,
    usage: parts.usage,
    model: parts.model,
    assistant,
  });
}
