import type { ModelOutputFormat } from "../model-types.js";
import type { JsonSchema } from "../tool-types.js";

/**
 * The Chat Completions `response_format` for a structured answer. `strict: true` when the schema
 * fits OpenAI's strict subset (every object closed with `additionalProperties: false` and listing
 * every property in `required`); otherwise `strict: false`, and routekit's own validation with
 * retries is what holds the answer to the schema.
 */
export function openAiResponseFormat(output: ModelOutputFormat): Record<string, unknown> {
  return {
    type: "json_schema",
    json_schema: {
      name: output.name,
      description: output.description,
      schema: output.schema,
      strict: isStrictSchema(output.schema),
    },
  };
}

const SUBSCHEMA_LISTS = ["anyOf", "allOf", "oneOf", "prefixItems"] as const;

function isStrictSchema(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  const node = schema as JsonSchema;
  const properties = node.properties;
  if (node.type === "object" || (typeof properties === "object" && properties !== null)) {
    if (node.additionalProperties !== false) return false;
    const keys = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    if (!keys.every((key) => required.includes(key))) return false;
    if (!Object.values(properties ?? {}).every(isStrictSchema)) return false;
  }
  if (node.items !== undefined && !isStrictSchema(node.items)) return false;
  for (const list of SUBSCHEMA_LISTS) {
    const members = node[list];
    if (Array.isArray(members) && !members.every(isStrictSchema)) return false;
  }
  for (const definitions of [node.$defs, node.definitions]) {
    if (
      typeof definitions === "object" &&
      definitions !== null &&
      !Object.values(definitions).every(isStrictSchema)
    ) {
      return false;
    }
  }
  return true;
}
