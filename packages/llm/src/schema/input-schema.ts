import { LlmError } from "../errors.js";
import type { JsonSchema } from "../tool-types.js";
import { isStandardSchema, type StandardSchemaV1, toJsonSchema } from "./standard-schema.js";

/** The schema of a tool that takes no arguments. */
export const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: "object", properties: {} });

/** A tool's input schema as JSON Schema, plus the Standard Schema it came from (if any). */
export interface ResolvedInputSchema {
  schema: JsonSchema;
  standard: StandardSchemaV1 | undefined;
}

/**
 * Resolves what a tool author gave as input schema: nothing (no arguments), a JSON Schema object or
 * a Standard Schema (converted once). The root is normalised to `type: "object"`.
 */
export function resolveInputSchema(input: unknown, toolName: string): ResolvedInputSchema {
  if (input === undefined) return { schema: EMPTY_INPUT_SCHEMA, standard: undefined };
  if (isStandardSchema(input)) {
    return { schema: normalizeInputSchema(toJsonSchema(input, toolName), toolName), standard: input };
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const found = input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`;
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${toolName}': the input schema must be a JSON Schema object or a Standard Schema, got ${found}`,
    );
  }
  return { schema: normalizeInputSchema(input as JsonSchema, toolName), standard: undefined };
}

/**
 * Makes sure the schema's root is `type: "object"` (providers require it): a schema without `type`
 * gets one, a schema of another type is an error naming the tool. A valid schema is returned as is.
 */
export function normalizeInputSchema(schema: JsonSchema, toolName: string): JsonSchema {
  if (schema.type === "object") return schema;
  if (schema.type === undefined) return { ...schema, type: "object" };
  throw new LlmError(
    "TOOL_INVALID",
    `tool '${toolName}': the input schema's root must be type "object" (tool arguments are a JSON object), ` +
      `found type ${JSON.stringify(schema.type)}`,
  );
}
