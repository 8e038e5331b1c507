// @routekit/llm: what a user writes code against: the llm: step and its plugin, the providers,
// the tool loop, tools, structured output, durable runs, quotas and spend, and the UI message
// stream. The whole tool model is "@routekit/llm/tool"; pieces routekit's own packages share
// (the console, otel, mcp, llm-tools) are in "@routekit/llm/internal".

export { LLM_HEADERS } from "./agent-run-contract.js";
export { AgentRuns } from "./durable/agent-runs.js";
export { LLM_RUN_ID_HEADER, LLM_RUN_STATUS_HEADER } from "./durable/durable-runner.js";
export type { DurableRunOptions } from "./durable/durable-settings.js";
// Names declaration merging and event listeners rely on, and the price of a call
export type { AgentRunEventBase } from "./durable/run-events.js";
export { LLM_THREAD_ID_HEADER } from "./durable/thread-memory.js";
export { llmSpendOf, type SpendTotals } from "./governance/llm-spend.js";
export type { PriceTable } from "./governance/model-prices.js";
export { costOf } from "./governance/model-prices.js";
export { type ProviderQuotaOptions, providerQuota } from "./governance/provider-quota.js";
export { memoryQuotaStore, type QuotaStore } from "./governance/quota-store.js";
export type { LlmRunCompletedEvent } from "./governance/run-completed-event.js";
export type { LlmEvent } from "./llm-events.js";
export { type LlmPluginOptions, llmPlugin } from "./llm-plugin.js";
export { LlmStepBuilder, type LlmStepOptions, llm } from "./llm-step-builder.js";
export { llmStreamOf } from "./llm-stream-of.js";
export type { ChatMessage, LanguageModel, ModelRequest, ModelResponse, TokenUsage } from "./model-types.js";
export {
  type AnthropicMessagesOptions,
  anthropicMessages,
  type OpenAiChatOptions,
  openAiChat,
  type ReplayModel,
  type ReplayTranscript,
  replayModel,
} from "./providers/index.js";
export { defineStructuredOutput } from "./structured-output/structured-output.js";
export {
  createTool,
  LlmError,
  type LlmErrorCode,
  ModelRequestError,
  OutputValidationError,
  type Tool,
  ToolExecutionError,
  type ToolResult,
  type ToolTypes,
  toTool,
} from "./tool-contract.js";
export {
  type LlmStream,
  type LlmStreamPart,
  type RunToolLoopOptions,
  runToolLoop,
  streamToolLoop,
  type ToolLoopResult,
} from "./tool-loop/index.js";
export type { LlmToolTypes } from "./tool-registry.js";
export { toUiMessageStream } from "./ui-message/ui-message-stream.js";
export { fromUiMessages, isUiChatRequest } from "./ui-message/ui-messages.js";
