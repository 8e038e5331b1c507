import type { ModelRequest, ModelResponse, ToolCall } from "../model-types.js";
import { mapStopReason } from "./anthropic-wire.js";
import { StreamedAnswer } from "./model-reply.js";
import { objectToolCall } from "./object-tool-call.js";
import {
  errorEventDetail,
  MAX_STREAM_PARTS,
  parseEventData,
  streamEndedEarly,
  streamErrorEvent,
} from "./stream-errors.js";
import { isWireObject, responseShapeError, type WireObject } from "./wire-shape.js";
import { anthropicUsage } from "./wire-usage.js";

/** A content block being assembled from its deltas. */
type BlockDraft =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string; call?: ToolCall }
  /** Kept whole (with its signature) so the turn is sent back as the API requires with tool use. */
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: unknown }
  | { type: "other" };

/** Assembles a streamed Messages answer, one event at a time. */
export interface AnthropicStreamAssembler {
  /** Reads one event's data (every Messages stream event carries its `type` in its data). */
  accept(data: string): void;
  /** The whole answer, once the stream has ended; fails when it ended before `message_stop`. */
  finish(): ModelResponse;
}

/**
 * Reads `message_start`, `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta`) / `content_block_stop`, `message_delta` (stop reason, usage), `message_stop`,
 * `ping` and `error`. Text, thinking and tool input deltas go to `request.onDelta` as they
 * arrive; a tool call's input is the concatenation of its `partial_json` fragments, parsed when
 * its block stops; thinking blocks stay in the turn (with their signatures) to be sent back.
 */
export function anthropicStreamAssembler(
  request: ModelRequest,
  fallbackModel: string,
  where: string,
): AnthropicStreamAssembler {
  return new AnthropicEvents(request, fallbackModel, where);
}

/** The state of one streamed answer: its model, stop reason, usage and content blocks. */
class AnthropicEvents implements AnthropicStreamAssembler {
  readonly #answer: StreamedAnswer;
  #inputUsage: unknown;
  #outputUsage: unknown;
  readonly #blocks = new Map<number, BlockDraft>();
  readonly #request: ModelRequest;
  readonly #where: string;

  constructor(request: ModelRequest, fallbackModel: string, where: string) {
    this.#request = request;
    this.#answer = new StreamedAnswer(fallbackModel);
    this.#where = where;
  }

  accept(data: string): void {
    const where = this.#where;
    const event = parseEventData(where, data);
    if (!isWireObject(event)) throw responseShapeError(where, "an event", "a JSON object", event);
    switch (event.type) {
      case "message_start":
        this.#startMessage(event);
        return;
      case "content_block_start":
        this.#startBlock(event);
        return;
      case "content_block_delta":
        this.#applyDelta(event);
        return;
      case "content_block_stop":
        this.#stopBlock(event);
        return;
      case "message_delta":
        this.#applyMessageDelta(event);
        return;
      case "message_stop":
        this.#answer.done = true;
        return;
      case "error":
        throw streamErrorEvent("anthropic", where, errorEventDetail(event.error));
      default:
        // ping and event types added later.
        return;
    }
  }

  #startMessage(event: WireObject): void {
    const message = event.message;
    if (isWireObject(message)) {
      if (typeof message.model === "string" && message.model !== "") this.#answer.model = message.model;
      this.#answer.responseId = message.id;
      this.#inputUsage = message.usage;
      this.#outputUsage = message.usage;
    }
  }

  #applyMessageDelta(event: WireObject): void {
    const delta = event.delta;
    if (isWireObject(delta) && typeof delta.stop_reason === "string")
      this.#answer.rawStopReason = delta.stop_reason;
    if (isWireObject(event.usage)) {
      this.#outputUsage = event.usage;
      // Its counts are the message's so far: those it names replace message_start's.
      if (event.usage.input_tokens !== undefined) {
        const inputUsage = this.#inputUsage;
        this.#inputUsage = { ...(isWireObject(inputUsage) ? inputUsage : {}), ...event.usage };
      }
    }
  }

  #blockAt(event: WireObject, type: string): BlockDraft {
    const where = this.#where;
    const index = event.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= MAX_STREAM_PARTS) {
      throw responseShapeError(where, `${type}.index`, `an integer 0-${MAX_STREAM_PARTS - 1}`, index);
    }
    let block = this.#blocks.get(index);
    if (block === undefined) {
      if (type !== "content_block_start") {
        throw responseShapeError(where, `${type}.index`, "the index of a started content block", index);
      }
      block = { type: "other" };
      this.#blocks.set(index, block);
    }
    return block;
  }

  #startBlock(event: WireObject): void {
    const where = this.#where;
    const { onDelta } = this.#request;
    const blocks = this.#blocks;
    const content = event.content_block;
    if (!isWireObject(content))
      throw responseShapeError(where, "content_block_start.content_block", "an object", content);
    this.#blockAt(event, "content_block_start");
    const index = event.index as number;
    if (content.type === "text") {
      const initial = typeof content.text === "string" ? content.text : "";
      blocks.set(index, { type: "text", text: initial });
      if (initial !== "") onDelta?.({ type: "text-delta", text: initial });
    } else if (content.type === "tool_use") {
      if (typeof content.id !== "string" || content.id === "")
        throw responseShapeError(
          where,
          "content_block_start.content_block.id",
          "a non-empty string",
          content.id,
        );
      if (typeof content.name !== "string" || content.name === "")
        throw responseShapeError(
          where,
          "content_block_start.content_block.name",
          "a non-empty string",
          content.name,
        );
      blocks.set(index, { type: "tool_use", id: content.id, name: content.name, json: "" });
      onDelta?.({ type: "tool-input-start", callId: content.id, toolName: content.name });
    } else if (content.type === "thinking") {
      const initial = typeof content.thinking === "string" ? content.thinking : "";
      blocks.set(index, { type: "thinking", thinking: initial, signature: "" });
      if (initial !== "") onDelta?.({ type: "reasoning-delta", text: initial });
    } else if (content.type === "redacted_thinking") {
      blocks.set(index, { type: "redacted_thinking", data: content.data });
    }
  }

  #applyDelta(event: WireObject): void {
    const where = this.#where;
    const { onDelta } = this.#request;
    const block = this.#blockAt(event, "content_block_delta");
    const delta = event.delta;
    if (!isWireObject(delta))
      throw responseShapeError(where, "content_block_delta.delta", "an object", delta);
    if (delta.type === "text_delta" && block.type === "text") {
      if (typeof delta.text !== "string")
        throw responseShapeError(where, "text_delta.text", "a string", delta.text);
      block.text += delta.text;
      if (delta.text !== "") onDelta?.({ type: "text-delta", text: delta.text });
    } else if (delta.type === "input_json_delta" && block.type === "tool_use") {
      if (typeof delta.partial_json !== "string")
        throw responseShapeError(where, "input_json_delta.partial_json", "a string", delta.partial_json);
      block.json += delta.partial_json;
      if (delta.partial_json !== "")
        onDelta?.({ type: "tool-input-delta", callId: block.id, text: delta.partial_json });
    } else if (block.type === "thinking") this.#applyThinkingDelta(block, delta);
    // Other deltas (citations) do not change the text, the reasoning or the tool calls.
  }

  #applyThinkingDelta(block: { thinking: string; signature: string }, delta: WireObject): void {
    if (delta.type === "thinking_delta") {
      if (typeof delta.thinking !== "string")
        throw responseShapeError(this.#where, "thinking_delta.thinking", "a string", delta.thinking);
      block.thinking += delta.thinking;
      if (delta.thinking !== "") this.#request.onDelta?.({ type: "reasoning-delta", text: delta.thinking });
    } else if (delta.type === "signature_delta" && typeof delta.signature === "string") {
      block.signature += delta.signature;
    }
  }

  /** A stopped tool_use block is a complete call: it is handed on at once. */
  #stopBlock(event: WireObject): void {
    const block = this.#blockAt(event, "content_block_stop");
    if (block.type !== "tool_use" || block.call !== undefined) return;
    block.call = toolCall(block);
    this.#request.onToolCall?.(block.call);
  }

  finish(): ModelResponse {
    if (!this.#answer.done) throw streamEndedEarly("anthropic", this.#where, "message_stop");
    let text = "";
    const toolCalls: ToolCall[] = [];
    const raw: unknown[] = [];
    for (const [, block] of [...this.#blocks.entries()].sort(([left], [right]) => left - right)) {
      if (block.type === "text") {
        text += block.text;
        raw.push({ type: "text", text: block.text });
      } else if (block.type === "tool_use") {
        const call = block.call ?? toolCall(block);
        toolCalls.push(call);
        raw.push({ type: "tool_use", id: block.id, name: block.name, input: call.arguments ?? {} });
      } else if (block.type === "thinking") {
        raw.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
      } else if (block.type === "redacted_thinking") {
        raw.push({ type: "redacted_thinking", data: block.data });
      }
    }
    return this.#answer.reply({
      text,
      toolCalls,
      mapStopReason,
      usage: anthropicUsage(this.#inputUsage, this.#outputUsage),
      raw,
    });
  }
}

/** The call of a finished tool_use block: its input parsed, or its raw text when that is not JSON. */
function toolCall(block: { id: string; name: string; json: string }): ToolCall {
  if (block.json.trim() === "") return objectToolCall(block.id, block.name, {});
  try {
    return objectToolCall(block.id, block.name, JSON.parse(block.json));
  } catch {
    // The loop answers the model that its arguments are not JSON.
    return { id: block.id, name: block.name, argumentsText: block.json };
  }
}
