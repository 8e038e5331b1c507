import { checkLoopOptions } from "./check-loop-options.js";
import { PartBuffer } from "./part-buffer.js";
import { runToolLoop } from "./run-tool-loop.js";
import type { LlmStreamPart } from "./stream-parts.js";
import type { RunToolLoopOptions, ToolLoopResult } from "./tool-loop-types.js";

/**
 * A run of the tool loop as it happens: iterate it for every part (text deltas, tool calls, tool
 * results, then the finish), or `textStream` for the text alone; `text` and `result` resolve when
 * the run ends. Each iteration starts from the first part, so several readers see the same run.
 * A reader that stops before the end (`break`, `return()`) cancels the run: the model call and
 * the tools in flight are aborted. A failed run makes readers throw after the last part.
 */
export interface LlmStream extends AsyncIterable<LlmStreamPart> {
  /** Only the text, delta by delta, across every turn. */
  readonly textStream: AsyncIterable<string>;
  /** The final answer text (the run's `text`). */
  readonly text: Promise<string>;
  /** The whole run's result, as `runToolLoop` resolves it. */
  readonly result: Promise<ToolLoopResult>;
  /** True once the run has ended, successfully or not. */
  readonly done: boolean;
  /** Cancels the run (the model call and the tools in flight) with `reason`. */
  cancel(reason?: unknown): void;
}

/**
 * Starts `runToolLoop` and returns its stream at once (the run goes on whether or not anyone
 * reads). Options are checked before anything starts; a bad one throws `OPTION_INVALID` here.
 */
export function streamToolLoop(options: RunToolLoopOptions): LlmStream {
  checkLoopOptions(options);
  const buffer = new PartBuffer<LlmStreamPart>();
  const controller = new AbortController();
  const parent = options.signal;
  const onParentAbort = (): void => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  const cancel = (reason?: unknown): void => {
    if (!buffer.ended) controller.abort(reason ?? stoppedReading());
  };
  const userOnPart = options.onPart;
  const result = runToolLoop({
    ...options,
    signal: controller.signal,
    onPart: (part) => {
      userOnPart?.(part);
      buffer.push(part);
    },
  }).then(
    (value) => {
      parent?.removeEventListener("abort", onParentAbort);
      buffer.end();
      return value;
    },
    (error: unknown) => {
      parent?.removeEventListener("abort", onParentAbort);
      buffer.end({ error });
      throw error;
    },
  );
  // Nobody has to read the outcome: a failure is still delivered to every reader and `result`.
  result.catch(() => {});
  let text: Promise<string> | undefined;
  const parts: AsyncIterable<LlmStreamPart> = {
    [Symbol.asyncIterator]: () => buffer.reader(() => cancel()),
  };
  return {
    [Symbol.asyncIterator]: parts[Symbol.asyncIterator],
    textStream: { [Symbol.asyncIterator]: () => textOnly(parts) },
    get text() {
      text ??= result.then((value) => value.text);
      return text;
    },
    result,
    get done() {
      return buffer.ended;
    },
    cancel,
  };
}

async function* textOnly(parts: AsyncIterable<LlmStreamPart>): AsyncGenerator<string> {
  for await (const part of parts) if (part.type === "text-delta") yield part.text;
}

function stoppedReading(): DOMException {
  return new DOMException("The stream's reader stopped before the end", "AbortError");
}
