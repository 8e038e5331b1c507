/**
 * "@routekit/llm/tool": the tool model on its own, for tool authors — the types, the adapter, the
 * renderers, argument validation and the registry, without the providers or the LLM step.
 */

export type {
  ToolArguments,
  ToolCallArguments,
  ToolDefinition,
  ToolValue,
} from "./adapter/create-tool.js";
export { createTool } from "./adapter/create-tool.js";
export type { AnthropicToolDefinition, OpenAiToolDefinition } from "./adapter/render.js";
export { renderAnthropicTool, renderOpenAiTool } from "./adapter/render.js";
export type { ToolHandlerOf, ToolObject, ToolParamsObject, UntypedToolObject } from "./adapter/to-tool.js";
export { toTool, toTools } from "./adapter/to-tool.js";
// Routes as tools: `.asLlmTool(name, options)` and `context.tools`.
export { type AsLlmToolOptions, type LlmToolBody, toolRegistryOf } from "./as-llm-tool.js";
// A caller that bounds a call by the signal it passes (and settles at its deadline) marks the
// context, so a tool made by createTool does not race the same signal a second time.
export { boundedByCaller } from "./bounded-call.js";
export type {
  LlmErrorCode,
  ModelRequestErrorOptions,
  SchemaIssue,
  ToolExecutionErrorOptions,
} from "./errors.js";
export {
  LLM_ERROR_CODES,
  LlmError,
  ModelRequestError,
  OutputValidationError,
  type OutputValidationErrorOptions,
  ToolExecutionError,
} from "./errors.js";
export {
  createRouteTool,
  type LlmToolAspect,
  renderToolOutput,
  TOOL_CALL_ID_HEADER,
  TOOL_EFFECT_KEY_HEADER,
  TOOL_NAME_HEADER,
} from "./route-tool.js";
export type { JsonSchemaDraft } from "./schema/compile-schema.js";
export { validateSchema } from "./schema/compile-schema.js";
export type { FromJsonSchema, SchemaMode, Simplify } from "./schema/json-schema-type.js";
export type { FromToolParams, ToolParam, ToolParams } from "./schema/params-shorthand.js";
export type { SchemaInput, SchemaOutput, ToolInputSchema } from "./schema/schema-type.js";
export type {
  StandardSchemaV1,
  StandardSchemaV1Issue,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
} from "./schema/standard-schema.js";
export { isStandardSchema, toJsonSchema } from "./schema/standard-schema.js";
export type { ArgumentsValidation } from "./schema/standard-validation.js";
export { validateToolArguments, validateToolArgumentsAsync } from "./schema/validate-arguments.js";
export {
  type LlmToolTypes,
  type ToolArgumentsFor,
  type ToolOutputFor,
  ToolRegistry,
  type ToolRegistryChange,
  type ToolTypes,
} from "./tool-registry.js";
export type {
  ApprovalContext,
  ApprovalRule,
  JsonSchema,
  Tool,
  ToolCallContext,
  ToolDurability,
  ToolResult,
  ToolSource,
} from "./tool-types.js";
export { TOOL_NAME_PATTERN } from "./tool-types.js";
