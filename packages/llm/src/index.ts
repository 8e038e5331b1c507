// @routekit/llm: the tool model (also on its own as "@routekit/llm/tool"), the llm: step, its loop
// and the providers.

// The agent-run contract observers read: header and property names, event types
export {
  LLM_EVENT_TYPES,
  LLM_HEADERS,
  LLM_MESSAGES_PROPERTY,
  LLM_STREAM_PROPERTY,
  type LlmEventType,
} from "./agent-run-contract.js";
// Durable runs: checkpoints, leases, approvals, recovery
export { AgentRuns, type ApprovalAnswer } from "./durable/agent-runs.js";
export { LLM_RUN_ID_HEADER, LLM_RUN_STATUS_HEADER } from "./durable/durable-runner.js";
export type { DurableRunOptions } from "./durable/durable-settings.js";
export { type ApprovalRequest, type DurableOutcome, effectKey } from "./durable/run-durable-loop.js";
export { AGENT_RUN_EVENT_TYPES, type AgentRunEventBase } from "./durable/run-events.js";
export type { ApprovalState, DurableRunState, RunStatus, ThreadMemory } from "./durable/run-state.js";
export type { RunRecord } from "./durable/run-store.js";
export { DEFAULT_THREAD_TOKENS, LLM_THREAD_ID_HEADER, trimToBudget } from "./durable/thread-memory.js";
// Budgets, cost and bounded tool results
export { cutToolResult, DEFAULT_MAX_TOOL_RESULT_CHARS } from "./governance/cut-tool-result.js";
export { TOOL_DEAD_LETTER_TOOL_HEADER, type ToolDeadLetter } from "./governance/dead-letter-tools.js";
export { LlmSpend, llmSpendOf, type SpendTotals } from "./governance/llm-spend.js";
export { costOf, type ModelPrice, type PriceTable } from "./governance/model-prices.js";
export {
  type ProviderQuota,
  type ProviderQuotaOptions,
  providerQuota,
} from "./governance/provider-quota.js";
export { memoryQuotaStore, type QuotaBuckets, type QuotaStore } from "./governance/quota-store.js";
export { BUDGET_NAMES, type BudgetName, type BudgetStop, type RunBudget } from "./governance/run-budget.js";
export type { LlmRunCompletedEvent } from "./governance/run-completed-event.js";
export type { LlmEvent } from "./llm-events.js";
export { type LlmPluginOptions, llmPlugin } from "./llm-plugin.js";
// The LLM step
export { LlmStepBuilder, type LlmStepOptions, type LlmStepUri, llm } from "./llm-step-builder.js";
export { llmStreamOf } from "./llm-stream-of.js";
export type {
  AssistantMessage,
  ChatMessage,
  LanguageModel,
  ModelDelta,
  ModelOutputFormat,
  ModelReasoningDelta,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelTextDelta,
  ModelToolInputDelta,
  ModelToolInputStart,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolCallResult,
  ToolMessage,
  UserMessage,
} from "./model-types.js";
// Providers
export {
  type AnthropicMessagesOptions,
  anthropicMessages,
  type OpenAiChatOptions,
  openAiChat,
  type ReplayModel,
  type ReplayTranscript,
  replayModel,
} from "./providers/index.js";
// Structured output
export {
  defineStructuredOutput,
  type StructuredOutput,
  type StructuredOutputOptions,
} from "./structured-output/structured-output.js";
// Tool model and routes as tools
export {
  type AnthropicToolDefinition,
  type ApprovalContext,
  type ApprovalRule,
  type ArgumentsValidation,
  type AsLlmToolOptions,
  boundedByCaller,
  createTool,
  type FromJsonSchema,
  type FromToolParams,
  isStandardSchema,
  type JsonSchema,
  type JsonSchemaDraft,
  LLM_ERROR_CODES,
  LlmError,
  type LlmErrorCode,
  type LlmToolBody,
  type LlmToolTypes,
  ModelRequestError,
  type OpenAiToolDefinition,
  OutputValidationError,
  renderAnthropicTool,
  renderOpenAiTool,
  type SchemaInput,
  type SchemaIssue,
  type SchemaOutput,
  type StandardSchemaV1,
  TOOL_CALL_ID_HEADER,
  TOOL_EFFECT_KEY_HEADER,
  TOOL_NAME_HEADER,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolArguments,
  type ToolArgumentsFor,
  type ToolCallArguments,
  type ToolCallContext,
  type ToolDefinition,
  type ToolDurability,
  ToolExecutionError,
  type ToolInputSchema,
  type ToolObject,
  type ToolOutputFor,
  type ToolParam,
  type ToolParams,
  ToolRegistry,
  type ToolRegistryChange,
  type ToolResult,
  type ToolSource,
  type ToolTypes,
  type ToolValue,
  toJsonSchema,
  toTool,
  toTools,
  validateSchema,
  validateToolArguments,
  validateToolArgumentsAsync,
} from "./tool-contract.js";
// The loop and the conversation model
export {
  describeToolError,
  type FinishPart,
  type LlmStream,
  type LlmStreamPart,
  type ModelCallEvent,
  type ReasoningDeltaPart,
  type RunToolLoopOptions,
  runToolLoop,
  sanitizeErrorText,
  streamToolLoop,
  type TextDeltaPart,
  type ToolCallEvent,
  type ToolCallPart,
  type ToolErrorPolicy,
  type ToolInputDeltaPart,
  type ToolInputStartPart,
  type ToolLoopEvent,
  type ToolLoopResult,
  type ToolLoopStopReason,
  type ToolResultPart,
} from "./tool-loop/index.js";
// The AI SDK's UI message stream (what useChat reads) and its request body
export {
  toUiMessageStream,
  UI_MESSAGE_STREAM_FORMAT,
  type UiMessageStream,
  type UiMessageStreamOptions,
} from "./ui-message/ui-message-stream.js";
export { fromUiMessages, isUiChatRequest, UI_MESSAGE_LIMITS } from "./ui-message/ui-messages.js";
