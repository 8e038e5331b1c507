/**
 * The attribute, metric and value names routekit's spans and metrics use. GenAI names follow the
 * OpenTelemetry GenAI semantic conventions as published with semantic-conventions v1.42.0 (the
 * last release holding them before they moved to their own repository); messaging, HTTP and
 * `error.type` names are the stable or development ones of the same release. They are kept here
 * rather than imported from `@opentelemetry/semantic-conventions`, so the package needs nothing
 * but `@opentelemetry/api` at run time; a test checks each against that package's constants.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  requestTemperature: "gen_ai.request.temperature",
  requestMaxTokens: "gen_ai.request.max_tokens",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  agentName: "gen_ai.agent.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  tokenType: "gen_ai.token.type",
} as const;

/** Well-known values of `gen_ai.operation.name`. */
export const GEN_AI_OPERATION = {
  chat: "chat",
  executeTool: "execute_tool",
  invokeAgent: "invoke_agent",
} as const;

/** The GenAI client metrics. */
export const GEN_AI_METRIC = {
  tokenUsage: "gen_ai.client.token.usage",
  operationDuration: "gen_ai.client.operation.duration",
} as const;

/** Messaging, HTTP and error attributes. */
export const SEMCONV = {
  errorType: "error.type",
  messagingSystem: "messaging.system",
  messagingDestinationName: "messaging.destination.name",
  messagingOperationType: "messaging.operation.type",
  messagingOperationName: "messaging.operation.name",
  messagingMessageId: "messaging.message.id",
  httpRequestMethod: "http.request.method",
  httpResponseStatusCode: "http.response.status_code",
  httpRoute: "http.route",
  urlPath: "url.path",
} as const;

/** routekit's own attributes and metrics (no semantic convention covers routes and steps). */
export const ROUTEKIT = {
  routeId: "routekit.route.id",
  exchangeId: "routekit.exchange.id",
  endpointUri: "routekit.endpoint.uri",
  stepPath: "routekit.step.path",
  /** The cost of a model call (chat span) or of a run (invoke_agent span) in US dollars, from llmPlugin's prices. */
  llmCostUsd: "routekit.llm.cost_usd",
  /** A durable agent run's id, on the `invoke_agent` spans of each stretch of the run. */
  agentRunId: "routekit.agent_run.id",
  exchangesMetric: "routekit.route.exchanges",
  failuresMetric: "routekit.route.failures",
  durationMetric: "routekit.route.duration",
} as const;

/** Bucket boundaries the GenAI conventions advise for the token usage histogram. */
export const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** Bucket boundaries (seconds) the GenAI conventions advise for operation durations. */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
