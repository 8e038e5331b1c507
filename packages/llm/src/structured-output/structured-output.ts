import { LlmError } from "../errors.js";
import { validateSchema } from "../schema/compile-schema.js";
import type { SchemaOutput, ToolInputSchema } from "../schema/schema-type.js";
import { isStandardSchema, type StandardSchemaV1, toJsonSchema } from "../schema/standard-schema.js";
import { type JsonSchema, TOOL_NAME_PATTERN } from "../tool-types.js";

/**
 * What an llm step's final answer must be: a JSON object matching `schema`. `name` and
 * `description` are what the model sees (OpenAI's `json_schema.name`, Anthropic's answer tool).
 * Make one with `defineStructuredOutput`.
 */
export interface StructuredOutput<TOutput = unknown> {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema sent to the model; its root is `type: "object"`. */
  readonly schema: JsonSchema;
  /** The Standard Schema it came from, which also validates (and may transform) the answer. */
  readonly standard: StandardSchemaV1 | undefined;
  /** Phantom: the type of the validated answer. */
  readonly type?: TOutput;
}

/** Options of `defineStructuredOutput` (and of `llm(model).output(schema, options)`). */
export interface StructuredOutputOptions {
  /** The name the model sees; letters, digits, `_` and `-`. Default `final_answer`. */
  name?: string;
  /** What the answer is, for the model. */
  description?: string;
}

const DEFAULT_NAME = "final_answer";
const DEFAULT_DESCRIPTION = "Give the final answer as a JSON object matching this schema.";

/**
 * Checks a schema for structured output once: converted to JSON Schema when it is a Standard
 * Schema, compiled, its root `type: "object"` (what OpenAI and Anthropic accept). Throws
 * `OPTION_INVALID` naming `where` and the schema otherwise.
 */
export function defineStructuredOutput<const TSchema extends ToolInputSchema>(
  schema: TSchema,
  options: StructuredOutputOptions = {},
  where = "structured output",
): StructuredOutput<SchemaOutput<TSchema>> {
  const name = options.name ?? DEFAULT_NAME;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: the output name must match ${TOOL_NAME_PATTERN.source} (found ${JSON.stringify(name)})`,
    );
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: expected a JSON Schema object or a Standard Schema for output '${name}', found ${schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema}`,
    );
  }
  let json: JsonSchema;
  try {
    json = toJsonSchema(schema, name);
    validateSchema(json, name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LlmError("OPTION_INVALID", `${where}: output '${name}': ${reason}`, { cause: error });
  }
  const rootType = json.type ?? (typeof json.properties === "object" ? "object" : undefined);
  if (rootType !== "object") {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: output '${name}' must describe a JSON object (root type "object"), found type ${JSON.stringify(json.type)}; wrap the value in an object property`,
    );
  }
  return {
    name,
    description: options.description ?? DEFAULT_DESCRIPTION,
    schema: json.type === undefined ? { ...json, type: "object" } : json,
    standard: isStandardSchema(schema) ? schema : undefined,
  };
}
