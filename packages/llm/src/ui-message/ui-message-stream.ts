import { messageOf, STREAM_FORMAT, type StreamFormat } from "@routekit/core/internal";
import type { LlmStreamPart } from "../tool-loop/stream-parts.js";
import type { LlmStream } from "../tool-loop/stream-tool-loop.js";
import { sanitizeErrorText } from "../tool-loop/tool-error-policy.js";
import type { ToolLoopStopReason } from "../tool-loop/tool-loop-types.js";

/** The wire form of the AI SDK's UI message stream (what `useChat` reads). */
export const UI_MESSAGE_STREAM_FORMAT: StreamFormat = Object.freeze({
  contentType: "text/event-stream",
  headers: Object.freeze({ "x-vercel-ai-ui-message-stream": "v1", "cache-control": "no-cache" }),
});

/**
 * A run as the AI SDK's UI message stream: each item is one event's JSON (`start`, `start-step`,
 * `text-start`/`text-delta`/`text-end`, `reasoning-start`/`reasoning-delta`/`reasoning-end`,
 * `tool-input-start`/`tool-input-delta`/`tool-input-available`,
 * `tool-output-available` or `tool-output-error`, `finish-step`, `finish` with the usage in its
 * `messageMetadata`, `error` or `abort`), then `[DONE]`. An `http:` reply writes it as
 * server-sent events with the protocol's header. Stopping to read cancels the run.
 */
export interface UiMessageStream extends AsyncIterable<string> {
  readonly [STREAM_FORMAT]: StreamFormat;
}

/** Options of `toUiMessageStream`. */
export interface UiMessageStreamOptions {
  /** The assistant message's id in the `start` event; default a new UUID. */
  messageId?: string;
}

/** The run `stream` in the AI SDK's UI message stream protocol (see `UiMessageStream`). */
export function toUiMessageStream(stream: LlmStream, options: UiMessageStreamOptions = {}): UiMessageStream {
  return {
    [STREAM_FORMAT]: UI_MESSAGE_STREAM_FORMAT,
    [Symbol.asyncIterator]: () => events(stream, options.messageId ?? crypto.randomUUID()),
  };
}

async function* events(stream: LlmStream, messageId: string): AsyncGenerator<string, void, undefined> {
  const writer = new ChunkWriter();
  yield json({ type: "start", messageId });
  const parts = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done === true) break;
      for (const chunk of writer.chunksOf(next.value)) yield json(chunk);
    }
    finished = true;
  } catch (error) {
    finished = true;
    for (const chunk of writer.close()) yield json(chunk);
    const aborted = error instanceof DOMException && error.name === "AbortError";
    yield json(
      aborted
        ? { type: "abort", reason: "the run was cancelled" }
        : { type: "error", errorText: errorTextOf(error) },
    );
  } finally {
    // A reader that stops early (the client went away) cancels the run.
    if (!finished) await parts.return?.();
  }
  yield "[DONE]";
}

type Chunk = Record<string, unknown> & { type: string };

/**
 * Turns parts into chunks, opening and closing steps, text and reasoning blocks as the protocol
 * wants them (one block open at a time: text and reasoning alternate as the model writes them).
 */
class ChunkWriter {
  #step: number | undefined;
  #block: { kind: "text" | "reasoning"; id: string } | undefined;
  #blocks = 0;
  /** Tool calls whose `tool-input-start` was sent (in this step). */
  #inputs = new Set<string>();

  *chunksOf(part: LlmStreamPart): Generator<Chunk> {
    if (part.type === "finish") {
      yield* this.close();
      yield {
        type: "finish",
        finishReason: finishReasonOf(part.finishReason),
        messageMetadata: { usage: part.usage, iterations: part.iterations },
      };
      return;
    }
    yield* this.#enterStep(part.iteration);
    if (part.type === "text-delta" || part.type === "reasoning-delta") {
      if (part.text === "") return;
      const kind = part.type === "text-delta" ? "text" : "reasoning";
      const id = yield* this.#enterBlock(kind);
      yield { type: `${kind}-delta`, id, delta: part.text };
      return;
    }
    yield* this.#endBlock();
    yield* this.#toolChunks(part);
  }

  *#toolChunks(part: Exclude<LlmStreamPart, { type: "finish" | "text-delta" | "reasoning-delta" }>) {
    switch (part.type) {
      case "tool-input-start":
        if (this.#inputs.has(part.toolCallId)) return;
        this.#inputs.add(part.toolCallId);
        yield { type: "tool-input-start", toolCallId: part.toolCallId, toolName: part.toolName };
        return;
      case "tool-input-delta":
        if (!this.#inputs.has(part.toolCallId)) return;
        yield { type: "tool-input-delta", toolCallId: part.toolCallId, inputTextDelta: part.delta };
        return;
      case "tool-call":
        if (!this.#inputs.has(part.toolCallId)) {
          this.#inputs.add(part.toolCallId);
          yield { type: "tool-input-start", toolCallId: part.toolCallId, toolName: part.toolName };
        }
        yield {
          type: "tool-input-available",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input ?? {},
        };
        return;
      case "tool-result":
        yield part.isError
          ? {
              type: "tool-output-error",
              toolCallId: part.toolCallId,
              errorText: part.output ?? "the tool call failed",
            }
          : { type: "tool-output-available", toolCallId: part.toolCallId, output: parsedOutput(part.output) };
        return;
    }
  }

  /** Ends the open block and step. */
  *close(): Generator<Chunk> {
    yield* this.#endBlock();
    if (this.#step !== undefined) yield { type: "finish-step" };
    this.#step = undefined;
    this.#inputs.clear();
  }

  *#enterStep(iteration: number): Generator<Chunk> {
    if (this.#step === iteration) return;
    yield* this.close();
    this.#step = iteration;
    yield { type: "start-step" };
  }

  /** The open block of `kind`'s id, after ending a block of the other kind and starting this one. */
  *#enterBlock(kind: "text" | "reasoning"): Generator<Chunk, string> {
    if (this.#block?.kind === kind) return this.#block.id;
    yield* this.#endBlock();
    const id = `${kind}-${++this.#blocks}`;
    this.#block = { kind, id };
    yield { type: `${kind}-start`, id };
    return id;
  }

  *#endBlock(): Generator<Chunk> {
    if (this.#block === undefined) return;
    yield { type: `${this.#block.kind}-end`, id: this.#block.id };
    this.#block = undefined;
  }
}

function json(chunk: Chunk): string {
  return JSON.stringify(chunk);
}

/** A tool's output as the page shows it: JSON when it is JSON, else the text. */
function parsedOutput(output: string | undefined): unknown {
  if (output === undefined) return null;
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
}

function finishReasonOf(reason: ToolLoopStopReason): string {
  if (reason === "content_filter") return "content-filter";
  if (reason === "max_iterations") return "other";
  return reason;
}

/** What the page may read of a failed run: its message without addresses, URLs or paths. */
function errorTextOf(error: unknown): string {
  const message = messageOf(error);
  return sanitizeErrorText(message.slice(0, 1000));
}
