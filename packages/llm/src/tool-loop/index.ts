export { runToolLoop } from "./run-tool-loop.js";
export type {
  FinishPart,
  LlmStreamPart,
  ReasoningDeltaPart,
  TextDeltaPart,
  ToolCallPart,
  ToolInputDeltaPart,
  ToolInputStartPart,
  ToolResultPart,
} from "./stream-parts.js";
export { type LlmStream, streamToolLoop } from "./stream-tool-loop.js";
export { describeToolError, sanitizeErrorText, type ToolErrorPolicy } from "./tool-error-policy.js";
export type {
  ModelCallEvent,
  RunToolLoopOptions,
  ToolCallEvent,
  ToolLoopEvent,
  ToolLoopResult,
  ToolLoopStopReason,
} from "./tool-loop-types.js";
