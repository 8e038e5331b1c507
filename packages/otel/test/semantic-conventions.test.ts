import * as stable from "@opentelemetry/semantic-conventions";
import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import { GEN_AI, GEN_AI_METRIC, GEN_AI_OPERATION, SEMCONV } from "../src/index.js";

describe("attribute and metric names", () => {
  it("are the OpenTelemetry semantic conventions' own names", () => {
    expect(GEN_AI).toEqual({
      operationName: incubating.ATTR_GEN_AI_OPERATION_NAME,
      providerName: incubating.ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: incubating.ATTR_GEN_AI_REQUEST_MODEL,
      requestTemperature: incubating.ATTR_GEN_AI_REQUEST_TEMPERATURE,
      requestMaxTokens: incubating.ATTR_GEN_AI_REQUEST_MAX_TOKENS,
      responseModel: incubating.ATTR_GEN_AI_RESPONSE_MODEL,
      responseId: incubating.ATTR_GEN_AI_RESPONSE_ID,
      responseFinishReasons: incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      usageInputTokens: incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      usageOutputTokens: incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      usageCacheReadInputTokens: incubating.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      usageCacheCreationInputTokens: incubating.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
      agentName: incubating.ATTR_GEN_AI_AGENT_NAME,
      toolName: incubating.ATTR_GEN_AI_TOOL_NAME,
      toolCallId: incubating.ATTR_GEN_AI_TOOL_CALL_ID,
      toolType: incubating.ATTR_GEN_AI_TOOL_TYPE,
      toolCallArguments: incubating.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      toolCallResult: incubating.ATTR_GEN_AI_TOOL_CALL_RESULT,
      inputMessages: incubating.ATTR_GEN_AI_INPUT_MESSAGES,
      outputMessages: incubating.ATTR_GEN_AI_OUTPUT_MESSAGES,
      systemInstructions: incubating.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
      tokenType: incubating.ATTR_GEN_AI_TOKEN_TYPE,
    });
    expect(GEN_AI_OPERATION).toEqual({
      chat: incubating.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      executeTool: incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      invokeAgent: incubating.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    });
    expect(GEN_AI_METRIC).toEqual({
      tokenUsage: incubating.METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
      operationDuration: incubating.METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
    });
    expect(SEMCONV).toEqual({
      errorType: stable.ATTR_ERROR_TYPE,
      messagingSystem: incubating.ATTR_MESSAGING_SYSTEM,
      messagingDestinationName: incubating.ATTR_MESSAGING_DESTINATION_NAME,
      messagingOperationType: incubating.ATTR_MESSAGING_OPERATION_TYPE,
      messagingOperationName: incubating.ATTR_MESSAGING_OPERATION_NAME,
      messagingMessageId: incubating.ATTR_MESSAGING_MESSAGE_ID,
      httpRequestMethod: stable.ATTR_HTTP_REQUEST_METHOD,
      httpResponseStatusCode: stable.ATTR_HTTP_RESPONSE_STATUS_CODE,
      httpRoute: stable.ATTR_HTTP_ROUTE,
      urlPath: stable.ATTR_URL_PATH,
    });
    expect(incubating.MESSAGING_SYSTEM_VALUE_RABBITMQ).toBe("rabbitmq");
  });
});
