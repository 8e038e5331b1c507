import type { OptionSchema } from "@routekit/core";
import type { OptionsOf } from "@routekit/core/internal";

/** Keeps the option schema's literal types, as `defineComponent` does. */
function defineOptions<TSchema extends OptionSchema>(schema: TSchema): TSchema {
  return schema;
}

/** The URI options of an `llm:` step. */
export const llmStepOptions = defineOptions({
  tools: { type: "list", description: "tool names, or * for all" },
  maxIterations: { type: "integer", default: 8, min: 1, max: 1000 },
  systemPrompt: { type: "string" },
  temperature: { type: "number", min: 0, max: 2 },
  maxTokens: { type: "integer", min: 1 },
  timeout: { type: "integer", min: 1 },
  toolTimeout: { type: "integer", min: 1 },
  parallelToolCalls: { type: "boolean", default: true },
  allowHeaders: { type: "list" },
  includeContent: { type: "boolean", default: false },
  toolErrors: { type: "enum", values: ["safe", "message"] },
  output: { type: "string", description: "a schema registered in llmPlugin({ schemas })" },
  maxOutputRetries: { type: "integer", default: 2, min: 0, max: 10 },
  stream: { type: "boolean", default: false, description: "hand the answer on as an LlmStream" },
  streamFormat: {
    type: "enum",
    values: ["parts", "ui-message"],
    description: "with stream=true: routekit's parts, or the AI SDK's UI message stream",
  },
  durable: {
    type: "boolean",
    default: false,
    description: "checkpoint the run in llmPlugin's durable store",
  },
  maxTotalTokens: { type: "integer", min: 1, description: "budget of input plus output tokens of a run" },
  maxInputTokens: { type: "integer", min: 1, description: "budget of input tokens of a run" },
  maxOutputTokens: { type: "integer", min: 1, description: "budget of output tokens of a run" },
  maxCostUsd: { type: "number", min: 0, description: "budget of a run in US dollars (needs a price)" },
  maxToolResultChars: {
    type: "integer",
    min: 1,
    description: "longest tool result the model reads, in characters (default 32000)",
  },
  toolDeadLetterUri: {
    type: "string",
    description: "endpoint receiving each failed tool call (run id, tool, arguments, error)",
  },
  threadTokens: {
    type: "integer",
    min: 1,
    description: "budget of a kept conversation (header llm.thread.id), in estimated tokens",
  },
});

/** The options of an `llm:` endpoint, parsed by `llmStepOptions`. */
export type LlmStepOptions = OptionsOf<typeof llmStepOptions>;
