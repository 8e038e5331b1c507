import type { TokenUsage } from "../model-types.js";
import type { ToolLoopStopReason } from "./tool-loop-types.js";

/** A piece of the answer's text, as the model wrote it (every turn's text, in order). */
export interface TextDeltaPart {
  type: "text-delta";
  text: string;
  /** The model call (1-based) that wrote it. */
  iteration: number;
}

/** A piece of the model's reasoning, when its provider streams it (Anthropic thinking, `reasoning_content`). */
export interface ReasoningDeltaPart {
  type: "reasoning-delta";
  text: string;
  iteration: number;
}

/** The model began writing a tool call (streaming models; only when tool arguments are in the parts). */
export interface ToolInputStartPart {
  type: "tool-input-start";
  toolCallId: string;
  toolName: string;
  iteration: number;
}

/** A fragment of a tool call's arguments as the model writes them (JSON text; same condition). */
export interface ToolInputDeltaPart {
  type: "tool-input-delta";
  toolCallId: string;
  delta: string;
  iteration: number;
}

/** The model asked for a tool call; its arguments are complete and it is about to run. */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  iteration: number;
  /** The arguments (parsed JSON, or the raw text when it is not JSON); only with `includeContent`. */
  input?: unknown;
}

/** A tool call was answered (an error result included). */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  iteration: number;
  isError: boolean;
  /** What the model reads; only with `includeContent`. */
  output?: string;
}

/** The run ended: the final answer, why it ended and the tokens of every model call. */
export interface FinishPart {
  type: "finish";
  text: string;
  finishReason: ToolLoopStopReason;
  usage: TokenUsage;
  iterations: number;
}

/** One part of a streamed run, in the order it happened. */
export type LlmStreamPart =
  | TextDeltaPart
  | ReasoningDeltaPart
  | ToolInputStartPart
  | ToolInputDeltaPart
  | ToolCallPart
  | ToolResultPart
  | FinishPart;
