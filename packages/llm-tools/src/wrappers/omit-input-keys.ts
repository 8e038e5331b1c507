import type { JsonSchema } from "@routekit/llm/tool";

/**
 * A tool input schema without the keys a wrapper's options fix: they leave `properties` and
 * `required`, so the model is never asked for a value the tool would ignore.
 */
export function omitInputKeys(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  if (keys.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, unknown> | undefined) };
  for (const key of keys) delete properties[key];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key: unknown) => !keys.includes(String(key)))
    : undefined;
  return { ...schema, properties, ...(required === undefined ? {} : { required }) };
}
