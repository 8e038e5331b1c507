import type { PriceTable } from "../governance/model-prices.js";
import type { ProviderQuota } from "../governance/provider-quota.js";
import type { BudgetStop, RunBudget } from "../governance/run-budget.js";
import type {
  AssistantMessage,
  ChatMessage,
  LanguageModel,
  ModelStopReason,
  TokenUsage,
} from "../model-types.js";
import type { StructuredOutput } from "../structured-output/structured-output.js";
import type { Tool, ToolCallContext } from "../tool-types.js";
import type { LlmStreamPart } from "./stream-parts.js";
import type { ToolErrorPolicy } from "./tool-error-policy.js";

/**
 * Options of `runToolLoop`. The budgets (`maxTotalTokens`, `maxInputTokens`, `maxOutputTokens`,
 * `maxCostUsd`) are checked before each model call (the conversation's estimated size plus the
 * call's `maxTokens`) and after it (the usage it reported); crossing one ends the run with stop
 * reason "budget" and `ToolLoopResult.budget` naming it.
 */
export interface RunToolLoopOptions extends RunBudget {
  model: LanguageModel;
  /** The tools the model may call, by name. */
  tools: ReadonlyMap<string, Tool>;
  /** The user prompt, or a conversation to continue (copied, never changed). */
  input: string | readonly ChatMessage[];
  system?: string;
  /** Most model calls in one run; default 8, at least 1. */
  maxIterations?: number;
  temperature?: number;
  maxTokens?: number;
  /** Let the model ask for several calls per turn and run them concurrently; default true. */
  parallelToolCalls?: boolean;
  /** Deadline of each tool call; a tool still running then becomes an error result. */
  toolTimeoutMs?: number;
  /** Cancels the model call and the tool calls in flight. */
  signal?: AbortSignal;
  /** Deadline of the whole run. */
  timeoutMs?: number;
  /** Extra context handed to every tool call (for instance allowed caller headers). */
  toolContext?: Omit<ToolCallContext, "signal" | "timeoutMs" | "callId">;
  /** Receives model and tool call events; it must not throw (an exception rejects the run). */
  onEvent?: (event: ToolLoopEvent) => void;
  /** Put tool arguments and outputs in events; default false (they may hold personal data). */
  includeContent?: boolean;
  /**
   * Put tool arguments and outputs in the stream's parts (`onPart`, `streamToolLoop`), whatever
   * `includeContent` says of events; default `includeContent`. A stream to the user's own page
   * (the AI SDK's UI message stream) shows them; events reach logs and traces.
   */
  partContent?: boolean;
  /** What the model reads of a tool's error; default "safe" (see `ToolErrorPolicy`). */
  toolErrors?: ToolErrorPolicy;
  /**
   * Receives the whole error of every tool call that threw or whose route failed (for logs, or a
   * dead-letter endpoint), with the arguments text the model wrote.
   */
  onToolError?: (error: Error, toolName: string, callId: string, argumentsText?: string) => void;
  /**
   * The final answer must match this schema (see `defineStructuredOutput`): it is parsed and
   * validated into `ToolLoopResult.output`; an answer that does not match is sent back with its
   * errors, up to `maxOutputRetries` times, then the run rejects with `OutputValidationError`.
   */
  output?: StructuredOutput;
  /** How many refused answers are sent back for another try; default 2. */
  maxOutputRetries?: number;
  /**
   * Receives the run as it happens: text deltas of every turn (as they arrive when the model
   * streams, else the turn's whole text), each tool call and tool result, and the finish. It must
   * not throw. `streamToolLoop` is the iterable form.
   */
  onPart?: (part: LlmStreamPart) => void;
  /** Prices by `provider/model`: the run's cost is reported (`ToolLoopResult.cost`) and `maxCostUsd` checked. */
  prices?: PriceTable;
  /** Longest tool result the model reads, in characters; longer ones are cut with a note. Default 32000. */
  maxToolResultChars?: number;
  /** Every model call waits for its turn in this rate limit (see `providerQuota`). */
  quota?: ProviderQuota;
  /** The tenant of the run, for a quota kept per tenant. */
  tenant?: string;
}

/** Why a run ended. */
export type ToolLoopStopReason = "stop" | "length" | "content_filter" | "max_iterations" | "budget" | "other";

/** What a run produced. */
export interface ToolLoopResult {
  /** The final assistant text; with `max_iterations`, the last non-empty text the model wrote. */
  text: string;
  /** The whole conversation: the input, every assistant turn and every tool answer. */
  messages: ChatMessage[];
  stopReason: ToolLoopStopReason;
  /** Model calls made. */
  iterations: number;
  /** Tokens summed over every model call. */
  usage: TokenUsage;
  provider: string;
  model: string;
  /** Tool calls answered. */
  toolCalls: number;
  /** With `output`: the validated answer (what the schema produced). */
  output?: unknown;
  /** The run's cost in US dollars, when the model has a price (see `prices`). */
  cost?: number;
  /** With stop reason "budget": which budget ended the run. */
  budget?: BudgetStop;
}

/** Fields common to model call events. */
interface ModelCallEventBase {
  provider: string;
  model: string;
  iteration: number;
}

/** A model call is about to start, has completed, or has failed. */
export type ModelCallEvent =
  | (ModelCallEventBase & {
      type: "model-call-started";
      /**
       * The conversation sent (the loop's own array, not a copy: read it in the handler, it grows
       * as the run goes on); only with `includeContent`.
       */
      messages?: readonly ChatMessage[];
    })
  | (ModelCallEventBase & {
      type: "model-call-completed";
      durationMs: number;
      usage: TokenUsage;
      /** The call's cost in US dollars, when the model has a price. */
      cost?: number;
      stopReason: ModelStopReason;
      /** The model that answered, as the response names it (the requested model when it names none). */
      responseModel?: string;
      /** The provider's id of the response (OpenAI `id`, Anthropic `message.id`), when it sent one. */
      responseId?: string;
      /** The assistant turn the call produced; only with `includeContent`. */
      message?: AssistantMessage;
    })
  | (ModelCallEventBase & { type: "model-call-failed"; durationMs: number; error: Error });

/** Fields common to tool call events. */
interface ToolCallEventBase {
  toolName: string;
  callId: string;
  iteration: number;
  /** The raw arguments text; only with `includeContent`. */
  arguments?: string;
}

/** A tool call is about to start or has been answered (errors included). */
export type ToolCallEvent =
  | (ToolCallEventBase & { type: "tool-call-started" })
  | (ToolCallEventBase & {
      type: "tool-call-completed";
      durationMs: number;
      isError: boolean;
      /** The output the model reads; only with `includeContent`. */
      output?: string;
      /** The whole error behind an error result, when a tool threw or its route failed. */
      error?: Error;
    });

/** Every event of a tool loop run. */
export type ToolLoopEvent = ModelCallEvent | ToolCallEvent;
