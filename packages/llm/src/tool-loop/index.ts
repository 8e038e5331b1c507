export { runToolLoop } from "./run-tool-loop.js";
export type {
  ModelCallEvent,
  RunToolLoopOptions,
  ToolCallEvent,
  ToolLoopEvent,
  ToolLoopResult,
  ToolLoopStopReason,
} from "./tool-loop-types.js";
