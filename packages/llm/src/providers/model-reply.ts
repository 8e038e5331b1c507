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

/**
 * What a streamed answer learns besides its content, whichever provider streams it: the model
 * that answers (the requested one until the stream names it), the response id, the provider's
 * stop reason and whether the stream's last event came.
 */
export class StreamedAnswer {
  model: string;
  responseId: unknown;
  rawStopReason = "";
  done = false;

  constructor(fallbackModel: string) {
    this.model = fallbackModel;
  }

  /** The `ModelResponse` of the whole answer, once its content is assembled. */
  reply(content: Pick<ReplyParts, "text" | "toolCalls" | "mapStopReason" | "usage" | "raw">): ModelResponse {
    return modelReply({
      ...content,
      responseId: this.responseId,
      rawStopReason: this.rawStopReason,
      model: this.model,
    });
  }
}
