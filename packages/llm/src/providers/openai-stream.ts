import type { ModelRequest, ModelResponse, ToolCall } from "../model-types.js";
import { StreamedAnswer } from "./model-reply.js";
import { mapFinishReason } from "./openai-wire.js";
import {
  errorEventDetail,
  MAX_STREAM_PARTS,
  parseEventData,
  streamEndedEarly,
  streamErrorEvent,
} from "./stream-errors.js";
import { isWireObject, responseShapeError, type WireObject } from "./wire-shape.js";
import { openAiUsage } from "./wire-usage.js";

/** A tool call being assembled from its deltas. */
interface CallDraft {
  id: string;
  name: string;
  argumentsText: string;
  /** Set once the call is complete (and handed to `onToolCall`); no fragment may follow. */
  call?: ToolCall;
  /** Set once its start went to `onDelta`. */
  started?: boolean;
}

/** Assembles a streamed Chat Completions answer, one `data:` event at a time. */
export interface OpenAiStreamAssembler {
  /** Reads one event's data (a `chat.completion.chunk`, or the `[DONE]` sentinel). */
  accept(data: string): void;
  /** The whole answer, once the stream has ended; fails when it ended before it was complete. */
  finish(): ModelResponse;
}

/**
 * Text, reasoning (`reasoning_content` or `reasoning`) and tool argument deltas go to
 * `request.onDelta` as they arrive; tool calls are assembled by their `index`,
 * their `arguments` fragments concatenated; usage comes with `stream_options.include_usage`.
 */
export function openAiStreamAssembler(
  request: ModelRequest,
  fallbackModel: string,
  where: string,
): OpenAiStreamAssembler {
  return new OpenAiChunks(request, fallbackModel, where);
}

/** The state of one streamed answer: its text, model, finish reason, usage and tool call drafts. */
class OpenAiChunks implements OpenAiStreamAssembler {
  #text = "";
  readonly #answer: StreamedAnswer;
  #usage: unknown;
  readonly #drafts = new Map<number, CallDraft>();
  readonly #request: ModelRequest;
  readonly #where: string;

  constructor(request: ModelRequest, fallbackModel: string, where: string) {
    this.#request = request;
    this.#answer = new StreamedAnswer(fallbackModel);
    this.#where = where;
  }

  accept(data: string): void {
    const where = this.#where;
    if (data === "[DONE]") {
      this.#answer.done = true;
      return;
    }
    const chunk = parseEventData(where, data);
    if (!isWireObject(chunk)) throw responseShapeError(where, "a chunk", "a JSON object", chunk);
    if (chunk.error !== undefined) throw streamErrorEvent("openai", where, errorEventDetail(chunk.error));
    if (typeof chunk.model === "string" && chunk.model !== "") this.#answer.model = chunk.model;
    this.#answer.responseId ??= chunk.id;
    if (isWireObject(chunk.usage)) this.#usage = chunk.usage;
    const choices = chunk.choices;
    if (choices === undefined || choices === null) return;
    if (!Array.isArray(choices)) throw responseShapeError(where, "choices", "an array", choices);
    let finished = false;
    for (const choice of choices) {
      if (this.#readChoice(choice)) finished = true;
    }
    // The finish reason comes after the last delta of the turn: every call is complete.
    if (finished && this.#request.onToolCall !== undefined) this.#completeDrafts(true);
  }

  /** Reads one choice (only the first counts); true when it carries the finish reason. */
  #readChoice(choice: unknown): boolean {
    const where = this.#where;
    const { onDelta } = this.#request;
    if (!isWireObject(choice)) throw responseShapeError(where, "choices[]", "an object", choice);
    if (choice.index !== undefined && choice.index !== 0) return false;
    let finished = false;
    if (typeof choice.finish_reason === "string") {
      this.#answer.rawStopReason = choice.finish_reason;
      finished = true;
    }
    const delta = choice.delta;
    if (delta === undefined || delta === null) return finished;
    if (!isWireObject(delta)) throw responseShapeError(where, "choices[0].delta", "an object", delta);
    // DeepSeek, vLLM and other compatible servers stream the reasoning beside the content.
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === "string" && reasoning !== "") {
      onDelta?.({ type: "reasoning-delta", text: reasoning });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      this.#text += delta.content;
      onDelta?.({ type: "text-delta", text: delta.content });
    }
    const calls = delta.tool_calls;
    if (calls === undefined || calls === null) return finished;
    if (!Array.isArray(calls))
      throw responseShapeError(where, "choices[0].delta.tool_calls", "an array", calls);
    for (let position = 0; position < calls.length; position++) {
      this.#readToolCallDelta(calls[position], `choices[0].delta.tool_calls[${position}]`);
    }
    return finished;
  }

  /**
   * Hands on the drafts that are complete: with `all` (the finish reason came) every draft with
   * an id and a name; else those before `index` whose arguments are whole JSON (some compatible
   * servers interleave the deltas of several calls, so a new index alone does not end a call).
   */
  #completeDrafts(all: boolean, index = MAX_STREAM_PARTS): void {
    for (const [at, draft] of this.#drafts) {
      if (draft.call !== undefined || at >= index || draft.id === "" || draft.name === "") continue;
      if (!all && !isWholeJson(draft.argumentsText)) continue;
      draft.call = { id: draft.id, name: draft.name, argumentsText: draft.argumentsText };
      this.#request.onToolCall?.(draft.call);
    }
  }

  #readToolCallDelta(delta: unknown, path: string): void {
    const where = this.#where;
    if (!isWireObject(delta)) throw responseShapeError(where, path, "an object", delta);
    const index = delta.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= MAX_STREAM_PARTS) {
      throw responseShapeError(where, `${path}.index`, `an integer 0-${MAX_STREAM_PARTS - 1}`, index);
    }
    let draft = this.#drafts.get(index);
    if (draft === undefined) {
      if (this.#request.onToolCall !== undefined) this.#completeDrafts(false, index);
      draft = { id: "", name: "", argumentsText: "" };
      this.#drafts.set(index, draft);
    }
    const fn = delta.function;
    if (fn !== undefined && fn !== null && !isWireObject(fn))
      throw responseShapeError(where, `${path}.function`, "an object", fn);
    if (draft.call !== undefined) {
      // The call already started: nothing may change it.
      if (fn?.name || fn?.arguments) {
        throw responseShapeError(where, path, "no more of a call whose arguments were whole JSON", delta);
      }
      return;
    }
    if (typeof delta.id === "string" && delta.id !== "") draft.id = delta.id;
    if (fn === undefined || fn === null) return;
    if (typeof fn.name === "string") draft.name += fn.name;
    const fragment = typeof fn.arguments === "string" ? fn.arguments : "";
    draft.argumentsText += fragment;
    if (this.#request.onDelta !== undefined) this.#handOnInput(draft, fragment);
  }

  /**
   * The call's start once its id and name are known (with the arguments written so far), then
   * each further fragment of its arguments.
   */
  #handOnInput(draft: CallDraft, fragment: string): void {
    const { onDelta } = this.#request;
    let text = fragment;
    if (draft.started !== true) {
      if (draft.id === "" || draft.name === "") return;
      draft.started = true;
      onDelta?.({ type: "tool-input-start", callId: draft.id, toolName: draft.name });
      text = draft.argumentsText;
    }
    if (text !== "") onDelta?.({ type: "tool-input-delta", callId: draft.id, text });
  }

  finish(): ModelResponse {
    const where = this.#where;
    const text = this.#text;
    const rawStopReason = this.#answer.rawStopReason;
    // Some compatible servers omit [DONE]: a finish reason marks the end as well.
    if (!this.#answer.done && rawStopReason === "")
      throw streamEndedEarly("openai", where, "[DONE] or a finish_reason");
    const toolCalls: ToolCall[] = [...this.#drafts.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, draft]) => {
        const path = `the tool call at index ${index}`;
        if (draft.id === "") throw responseShapeError(where, `${path}: id`, "a non-empty string", draft.id);
        if (draft.name === "")
          throw responseShapeError(where, `${path}: function.name`, "a non-empty string", draft.name);
        return draft.call ?? { id: draft.id, name: draft.name, argumentsText: draft.argumentsText };
      });
    const raw: WireObject = { role: "assistant", content: text === "" && toolCalls.length > 0 ? null : text };
    if (toolCalls.length > 0) {
      raw.tool_calls = toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.argumentsText },
      }));
    }
    return this.#answer.reply({
      text,
      toolCalls,
      mapStopReason: mapFinishReason,
      usage: openAiUsage(this.#usage),
      raw,
    });
  }
}

/** True when `text` is a whole JSON value (more text after it could only make it invalid). */
function isWholeJson(text: string): boolean {
  if (text.trim() === "") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
