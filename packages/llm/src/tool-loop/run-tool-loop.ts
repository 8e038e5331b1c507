import { type RunDeadline, runDeadline } from "../bounded-call.js";
import { LlmError, OutputValidationError } from "../errors.js";
import { costOf, type ModelPrice, priceOf } from "../governance/model-prices.js";
import { quotaModel } from "../governance/quota-model.js";
import { addUsage, BudgetCheck, type BudgetStop, hasBudget } from "../governance/run-budget.js";
import type {
  ChatMessage,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  TokenUsage,
  ToolCallResult,
} from "../model-types.js";
import { withAnswerTool } from "../structured-output/answer-tools.js";
import { checkOutput } from "../structured-output/check-output.js";
import { readAnswer, refusalMessage } from "../structured-output/read-answer.js";
import { checkLoopOptions } from "./check-loop-options.js";
import type { ToolCallEnvironment } from "./execute-tool-call.js";
import type {
  ModelCallEvent,
  RunToolLoopOptions,
  ToolLoopResult,
  ToolLoopStopReason,
} from "./tool-loop-types.js";
import { TurnCalls } from "./turn-calls.js";

/**
 * Calls the model, answers every tool call it asks for, and repeats until it stops or
 * `maxIterations` model calls were made (then it stops with `max_iterations`, never throwing).
 * Tool failures are error results the model reads; a failed model call or an abort rejects.
 */
export async function runToolLoop(given: RunToolLoopOptions): Promise<ToolLoopResult> {
  checkLoopOptions(given);
  const options =
    given.quota === undefined
      ? given
      : { ...given, model: quotaModel(given.model, given.quota, given.tenant) };
  const { model, tools, onEvent, onPart } = options;
  const maxIterations = options.maxIterations ?? 8;
  const messages: ChatMessage[] =
    typeof options.input === "string" ? [{ role: "user", content: options.input }] : options.input.slice();
  const toolList = Array.from(tools.values());
  const deadline = runDeadline(options.signal, options.timeoutMs);
  const signal = deadline?.signal;
  const parallel = options.parallelToolCalls ?? true;
  const { output } = options;
  const outputFormat =
    output === undefined
      ? undefined
      : { name: output.name, description: output.description, schema: output.schema };
  let refusals = 0;
  const environment: ToolCallEnvironment = {
    tools: output === undefined ? tools : withAnswerTool(tools, output),
    signal,
    toolTimeoutMs: options.toolTimeoutMs,
    headers: options.toolContext?.headers,
    onEvent,
    includeContent: options.includeContent === true,
    ...(options.partContent === undefined ? {} : { partContent: options.partContent }),
    toolErrors: options.toolErrors ?? "safe",
    onToolError: options.onToolError,
    onPart,
    racedBySignal: true,
    maxToolResultChars: options.maxToolResultChars,
  };
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const price = priceOf(options.prices, model.provider, model.model);
  const budget = hasBudget(options) ? new BudgetCheck(options, price) : undefined;
  const run: RunTotals = { usage, price, toolCalls: 0 };
  // Tool arguments are content: streamed as they are written only where the parts carry them.
  const inputParts = options.partContent ?? options.includeContent === true;
  let lastText = "";

  try {
    for (let iteration = 1; ; iteration++) {
      if (signal?.aborted) throw runAborted(signal.reason, deadline, options, iteration);
      const before = budget?.beforeCall(usage, messages, options.system, options.maxTokens);
      if (before !== undefined) {
        return finish(options, messages, run, lastText, "budget", iteration - 1, before);
      }
      const request: ModelRequest = {
        messages,
        system: options.system,
        tools: toolList,
        temperature: options.temperature,
        maxTokens: options.maxTokens,
        parallelToolCalls: toolList.length > 0 ? parallel : undefined,
        signal,
      };
      if (outputFormat !== undefined) request.output = outputFormat;
      const streamed = { text: false };
      if (onPart !== undefined) request.onDelta = deltaToParts(onPart, iteration, inputParts, streamed);
      // Tool calls start as soon as the streaming model has written their arguments; not with an
      // output schema, where the answer tool decides whether the others run at all.
      const turn = new TurnCalls(environment, iteration, parallel);
      if (output === undefined) request.onToolCall = (call) => turn.start(call);
      let response: ModelResponse;
      try {
        // Without events the model is awaited here: no reporting layer around it.
        response =
          onEvent === undefined
            ? await model.generate(request)
            : await callModel(options, request, iteration, deadline, price);
      } catch (error) {
        const failure =
          onEvent === undefined && deadline?.signal.aborted
            ? runAborted(error, deadline, options, iteration)
            : error;
        await turn.abandon(failure);
        throw failure;
      }
      // A model that does not stream hands on its turn's text whole.
      if (onPart !== undefined && !streamed.text && response.text !== "") {
        onPart({ type: "text-delta", text: response.text, iteration });
      }
      addUsage(usage, response.usage);
      messages.push(response.assistant);
      if (response.text !== "") lastText = response.text;
      // The turn that crossed a budget stays in the conversation; its tool calls are not answered.
      const after = budget?.afterCall(usage);
      if (after !== undefined) return finish(options, messages, run, lastText, "budget", iteration, after);
      const answer = output === undefined ? undefined : readAnswer(response, output);
      if (output !== undefined && answer !== undefined) {
        const checked = await checkOutput(output, answer.answer);
        if (checked.ok) {
          const text = JSON.stringify(checked.value);
          const result = finish(options, messages, run, text, "stop", iteration);
          return { ...result, output: checked.value };
        }
        refusals += 1;
        if (refusals > (options.maxOutputRetries ?? 2)) {
          throw new OutputValidationError(
            `runToolLoop: the answer does not match output '${output.name}' after ${refusals} attempt(s) ` +
              `(model ${model.provider}/${model.model}): ${checked.message}`,
            { outputName: output.name, issues: checked.issues, attempts: refusals },
          );
        }
        messages.push(refusalMessage(output, answer, checked.message));
        continue;
      }
      const calls = response.toolCalls;
      if (calls.length === 0) {
        const stopReason = loopStopReason(response.stopReason);
        return finish(options, messages, run, response.text, stopReason, iteration);
      }
      let results: ToolCallResult[];
      try {
        results = await turn.answer(calls);
      } catch (error) {
        throw signal?.aborted ? runAborted(error, deadline, options, iteration) : error;
      }
      run.toolCalls += calls.length;
      messages.push({ role: "tool", results });
      if (iteration >= maxIterations) {
        if (output !== undefined) {
          throw new LlmError(
            "LOOP_LIMIT",
            `runToolLoop: maxIterations (${maxIterations}) model calls were made before an answer matching output '${output.name}'`,
          );
        }
        return finish(options, messages, run, lastText, "max_iterations", iteration);
      }
    }
  } finally {
    deadline?.clear();
  }
}

/**
 * A streaming model's deltas as parts of turn `iteration`: text, reasoning, and (with
 * `inputParts`) each tool call's start and argument fragments. `streamed.text` records that text came.
 */
function deltaToParts(
  onPart: NonNullable<RunToolLoopOptions["onPart"]>,
  iteration: number,
  inputParts: boolean,
  streamed: { text: boolean },
): (delta: ModelDelta) => void {
  return (delta) => {
    switch (delta.type) {
      case "text-delta":
        streamed.text = true;
        onPart({ type: "text-delta", text: delta.text, iteration });
        return;
      case "reasoning-delta":
        onPart({ type: "reasoning-delta", text: delta.text, iteration });
        return;
      case "tool-input-start":
        if (inputParts) {
          onPart({ type: "tool-input-start", toolCallId: delta.callId, toolName: delta.toolName, iteration });
        }
        return;
      case "tool-input-delta":
        if (inputParts)
          onPart({ type: "tool-input-delta", toolCallId: delta.callId, delta: delta.text, iteration });
        return;
    }
  };
}

/** What a run has spent so far. */
interface RunTotals {
  usage: TokenUsage;
  price: ModelPrice | undefined;
  toolCalls: number;
}

/** The run's result, also handed on as the stream's finish part. */
function finish(
  options: RunToolLoopOptions,
  messages: ChatMessage[],
  run: RunTotals,
  text: string,
  stopReason: ToolLoopStopReason,
  iterations: number,
  budget?: BudgetStop,
): ToolLoopResult {
  const { usage, price } = run;
  options.onPart?.({ type: "finish", text, finishReason: stopReason, usage: { ...usage }, iterations });
  const { model } = options;
  const result: ToolLoopResult = {
    text,
    messages,
    stopReason,
    iterations,
    usage,
    provider: model.provider,
    model: model.model,
    toolCalls: run.toolCalls,
  };
  if (price !== undefined) result.cost = costOf(usage, price);
  if (budget !== undefined) result.budget = budget;
  return result;
}

/** A model call with its started and completed (or failed) events. */
async function callModel(
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
function runAborted(
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

function loopStopReason(reason: ModelStopReason): ToolLoopStopReason {
  return reason === "tool_calls" ? "other" : reason;
}
