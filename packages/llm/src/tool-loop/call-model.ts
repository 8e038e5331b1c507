import type { RunDeadline } from "../bounded-call.js";
import { LlmError } from "../errors.js";
import { costOf, type ModelPrice } from "../governance/model-prices.js";
import type { ModelRequest, ModelResponse } from "../model-types.js";
import type { ModelCallEvent, RunToolLoopOptions } from "./tool-loop-types.js";

/** A model call with its started and completed (or failed) events. */
export async function callModel(
  options: RunToolLoopOptions,
  request: ModelRequest,
  iteration: number,
  deadline: RunDeadline | undefined,
  price: ModelPrice | undefined,
): Promise<ModelResponse> {
  const { model } = options;
  const onEvent = options.onEvent as (event: ModelCallEvent) => void;
  const base = { provider: model.provider, model: model.model, iteration };
  const includeContent = options.includeContent === true;
  const started = performance.now();
  onEvent(
    includeContent
      ? { type: "model-call-started", ...base, messages: request.messages }
      : { type: "model-call-started", ...base },
  );
  let response: ModelResponse;
  try {
    response = await model.generate(request);
  } catch (error) {
    const failure = deadline?.signal.aborted ? runAborted(error, deadline, options, iteration) : error;
    const reported = failure instanceof Error ? failure : new Error(String(failure));
    onEvent({ type: "model-call-failed", ...base, durationMs: performance.now() - started, error: reported });
    throw failure;
  }
  const completed: ModelCallEvent = {
    type: "model-call-completed",
    ...base,
    durationMs: performance.now() - started,
    usage: response.usage,
    ...(price === undefined ? undefined : { cost: costOf(response.usage, price) }),
    stopReason: response.stopReason,
    responseModel: response.model,
  };
  if (response.responseId !== undefined) completed.responseId = response.responseId;
  if (includeContent) completed.message = response.assistant;
  onEvent(completed);
  return response;
}

/** The run's own deadline becomes `LOOP_LIMIT`; a caller abort rejects with the caller's reason. */
export function runAborted(
  error: unknown,
  deadline: RunDeadline | undefined,
  options: RunToolLoopOptions,
  iteration: number,
): unknown {
  if (deadline?.timedOut()) {
    return new LlmError(
      "LOOP_LIMIT",
      `runToolLoop: the run's timeoutMs of ${options.timeoutMs} ms passed during iteration ${iteration} ` +
        `(model ${options.model.provider}/${options.model.model})`,
      { cause: error },
    );
  }
  return options.signal?.aborted ? options.signal.reason : error;
}
