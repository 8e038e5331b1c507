import { type RunDeadline, runDeadline } from "../bounded-call.js";
import { LlmError, OutputValidationError } from "../errors.js";
import { costOf, type ModelPrice, priceOf } from "../governance/model-prices.js";
import { quotaModel } from "../governance/quota-model.js";
import { addUsage, BudgetCheck, type BudgetStop, hasBudget } from "../governance/run-budget.js";
import type {
  ChatMessage,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  TokenUsage,
  ToolCallResult,
} from "../model-types.js";
import { withAnswerTool } from "../structured-output/answer-tools.js";
import { checkOutput } from "../structured-output/check-output.js";
import { readAnswer, refusalMessage, type StructuredAnswer } from "../structured-output/read-answer.js";
import type { Tool } from "../tool-types.js";
import { callModel, runAborted } from "./call-model.js";
import { checkLoopOptions } from "./check-loop-options.js";
import { deltaToParts } from "./delta-to-parts.js";
import type { ToolCallEnvironment } from "./execute-tool-call.js";
import type { RunToolLoopOptions, ToolLoopResult, ToolLoopStopReason } from "./tool-loop-types.js";
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
  const { model, tools, onPart } = options;
  const maxIterations = options.maxIterations ?? 8;
  const messages: ChatMessage[] =
    typeof options.input === "string" ? [{ role: "user", content: options.input }] : options.input.slice();
  const toolList = Array.from(tools.values());
  const deadline = runDeadline(options.signal, options.timeoutMs);
  const signal = deadline?.signal;
  const parallel = options.parallelToolCalls ?? true;
  const { output } = options;
  let refusals = 0;
  const environment = loopEnvironment(options, signal);
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
      const request = modelRequest(options, messages, toolList, parallel, signal);
      const streamed = { text: false };
      if (onPart !== undefined) request.onDelta = deltaToParts(onPart, iteration, inputParts, streamed);
      // Tool calls start as soon as the streaming model has written their arguments; not with an
      // output schema, where the answer tool decides whether the others run at all.
      const turn = new TurnCalls(environment, iteration, parallel);
      if (output === undefined) request.onToolCall = (call) => turn.start(call);
      const response = await generateTurn(options, request, turn, iteration, deadline, price);
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
        const attempt = { options, output, messages, run, iteration, attempts: refusals + 1 };
        const settled = await settleAnswer(attempt, answer);
        if (settled !== undefined) return settled;
        refusals += 1;
        continue;
      }
      const calls = response.toolCalls;
      if (calls.length === 0) {
        const stopReason = loopStopReason(response.stopReason);
        return finish(options, messages, run, response.text, stopReason, iteration);
      }
      const results = await answerCalls(turn, calls, deadline, options, iteration);
      run.toolCalls += calls.length;
      messages.push({ role: "tool", results });
      if (iteration >= maxIterations) {
        checkOutputReached(options, maxIterations);
        return finish(options, messages, run, lastText, "max_iterations", iteration);
      }
    }
  } finally {
    deadline?.clear();
  }
}

/** What every tool call of a run shares: the tools (with the answer tool of an output schema), limits, callbacks. */
function loopEnvironment(options: RunToolLoopOptions, signal: AbortSignal | undefined): ToolCallEnvironment {
  const { tools, output } = options;
  return {
    tools: output === undefined ? tools : withAnswerTool(tools, output),
    signal,
    toolTimeoutMs: options.toolTimeoutMs,
    headers: options.toolContext?.headers,
    onEvent: options.onEvent,
    includeContent: options.includeContent === true,
    ...(options.partContent === undefined ? {} : { partContent: options.partContent }),
    toolErrors: options.toolErrors ?? "safe",
    onToolError: options.onToolError,
    onPart: options.onPart,
    racedBySignal: true,
    maxToolResultChars: options.maxToolResultChars,
  };
}

/** The request of one model call: the conversation so far, the tools, and the output schema if any. */
function modelRequest(
  options: RunToolLoopOptions,
  messages: ChatMessage[],
  toolList: Tool[],
  parallel: boolean,
  signal: AbortSignal | undefined,
): ModelRequest {
  const request: ModelRequest = {
    messages,
    system: options.system,
    tools: toolList,
    temperature: options.temperature,
    maxTokens: options.maxTokens,
    parallelToolCalls: toolList.length > 0 ? parallel : undefined,
    signal,
  };
  const { output } = options;
  if (output !== undefined) {
    request.output = { name: output.name, description: output.description, schema: output.schema };
  }
  return request;
}

/** One model call; on failure the turn's started tool calls are abandoned before it rejects. */
async function generateTurn(
  options: RunToolLoopOptions,
  request: ModelRequest,
  turn: TurnCalls,
  iteration: number,
  deadline: RunDeadline | undefined,
  price: ModelPrice | undefined,
): Promise<ModelResponse> {
  const { onEvent } = options;
  try {
    // Without events the model is awaited here: no reporting layer around it.
    return onEvent === undefined
      ? await options.model.generate(request)
      : await callModel(options, request, iteration, deadline, price);
  } catch (error) {
    const failure =
      onEvent === undefined && deadline?.signal.aborted
        ? runAborted(error, deadline, options, iteration)
        : error;
    await turn.abandon(failure);
    throw failure;
  }
}

/** The results of a turn's tool calls; an abort while they run rejects as the run's abort. */
async function answerCalls(
  turn: TurnCalls,
  calls: ModelResponse["toolCalls"],
  deadline: RunDeadline | undefined,
  options: RunToolLoopOptions,
  iteration: number,
): Promise<ToolCallResult[]> {
  try {
    return await turn.answer(calls);
  } catch (error) {
    throw deadline?.signal.aborted ? runAborted(error, deadline, options, iteration) : error;
  }
}

/** With an output schema, running out of iterations before a matching answer is a `LOOP_LIMIT` error. */
function checkOutputReached(options: RunToolLoopOptions, maxIterations: number): void {
  const { output } = options;
  if (output === undefined) return;
  throw new LlmError(
    "LOOP_LIMIT",
    `runToolLoop: maxIterations (${maxIterations}) model calls were made before an answer matching output '${output.name}'`,
  );
}

/** A turn answering with the output schema's answer, and its place in the run. */
interface AnswerAttempt {
  options: RunToolLoopOptions;
  output: NonNullable<RunToolLoopOptions["output"]>;
  messages: ChatMessage[];
  run: RunTotals;
  iteration: number;
  /** The attempts counted if this answer is refused. */
  attempts: number;
}

/**
 * The run's result when the answer matches the output schema; otherwise the refusal the model reads
 * next (undefined), or an `OutputValidationError` once the retries are spent.
 */
async function settleAnswer(
  attempt: AnswerAttempt,
  answer: StructuredAnswer,
): Promise<ToolLoopResult | undefined> {
  const { options, output, messages, attempts } = attempt;
  const checked = await checkOutput(output, answer.answer);
  if (checked.ok) {
    const text = JSON.stringify(checked.value);
    const result = finish(options, messages, attempt.run, text, "stop", attempt.iteration);
    return { ...result, output: checked.value };
  }
  if (attempts > (options.maxOutputRetries ?? 2)) {
    const { model } = options;
    throw new OutputValidationError(
      `runToolLoop: the answer does not match output '${output.name}' after ${attempts} attempt(s) ` +
        `(model ${model.provider}/${model.model}): ${checked.message}`,
      { outputName: output.name, issues: checked.issues, attempts },
    );
  }
  messages.push(refusalMessage(output, answer, checked.message));
  return undefined;
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

function loopStopReason(reason: ModelStopReason): ToolLoopStopReason {
  return reason === "tool_calls" ? "other" : reason;
}
