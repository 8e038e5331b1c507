// @routekit/llm/internal: the pieces routekit's own packages share (console, otel, mcp,
// llm-tools, the cli). Unstable: names and signatures here may change in any release. Users
// program against "@routekit/llm" and "@routekit/llm/tool".

export {
  LLM_EVENT_TYPES,
  LLM_MESSAGES_PROPERTY,
  LLM_STREAM_PROPERTY,
  type LlmEventType,
} from "./agent-run-contract.js";
export type { ApprovalAnswer } from "./durable/agent-runs.js";
export { type ApprovalRequest, type DurableOutcome, effectKey } from "./durable/run-durable-loop.js";
export { AGENT_RUN_EVENT_TYPES } from "./durable/run-events.js";
export type { ApprovalState, DurableRunState, RunStatus, ThreadMemory } from "./durable/run-state.js";
export type { RunRecord } from "./durable/run-store.js";
export { DEFAULT_THREAD_TOKENS, trimToBudget } from "./durable/thread-memory.js";
export { cutToolResult, DEFAULT_MAX_TOOL_RESULT_CHARS } from "./governance/cut-tool-result.js";
export { TOOL_DEAD_LETTER_TOOL_HEADER, type ToolDeadLetter } from "./governance/dead-letter-tools.js";
export { LlmSpend } from "./governance/llm-spend.js";
export type { ModelPrice } from "./governance/model-prices.js";
export type { ProviderQuota } from "./governance/provider-quota.js";
export type { QuotaBuckets } from "./governance/quota-store.js";
export { BUDGET_NAMES, type BudgetName, type BudgetStop, type RunBudget } from "./governance/run-budget.js";
export type { LlmStepUri } from "./llm-step-builder.js";
export type {
  AssistantMessage,
  ModelDelta,
  ModelOutputFormat,
  ModelReasoningDelta,
  ModelStopReason,
  ModelTextDelta,
  ModelToolInputDelta,
  ModelToolInputStart,
  SystemMessage,
  ToolCall,
  ToolCallResult,
  ToolMessage,
  UserMessage,
} from "./model-types.js";
export type { StructuredOutput, StructuredOutputOptions } from "./structured-output/structured-output.js";
export {
  describeToolError,
  type FinishPart,
  type ModelCallEvent,
  type ReasoningDeltaPart,
  sanitizeErrorText,
  type TextDeltaPart,
  type ToolCallEvent,
  type ToolCallPart,
  type ToolErrorPolicy,
  type ToolInputDeltaPart,
  type ToolInputStartPart,
  type ToolLoopEvent,
  type ToolLoopStopReason,
  type ToolResultPart,
} from "./tool-loop/index.js";
export {
  UI_MESSAGE_STREAM_FORMAT,
  type UiMessageStream,
  type UiMessageStreamOptions,
} from "./ui-message/ui-message-stream.js";
export { UI_MESSAGE_LIMITS } from "./ui-message/ui-messages.js";
