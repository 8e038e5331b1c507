import { LlmError } from "../errors.js";
import type { JsonSchema } from "../tool-types.js";
import type { FromJsonSchema, SchemaMode, Simplify } from "./json-schema-type.js";

/**
 * One argument in the `params` shorthand: `type` defaults to "string", `desc` is an alias of
 * `description`, `required: true` lists the key in the schema's `required`. Other keys are JSON
 * Schema keywords and are copied as they are (`minimum`, `default`, `format`, ...).
 */
export interface ToolParam {
  type?: string | readonly string[];
  description?: string;
  desc?: string;
  required?: boolean;
  items?: JsonSchema;
  enum?: readonly unknown[];
  readonly [keyword: string]: unknown;
}

/** The `params` shorthand: argument name to its description. */
export type ToolParams = Readonly<Record<string, ToolParam>>;

type ParamType<TParam, TMode extends SchemaMode> = TParam extends { readonly type: unknown }
  ? FromJsonSchema<TParam, TMode>
  : TParam extends { readonly enum: readonly (infer TValue)[] }
    ? TValue
    : string;

type IsPresent<TParam, TMode extends SchemaMode> = TParam extends { readonly required: true }
  ? true
  : TMode extends "output"
    ? TParam extends { readonly default: unknown }
      ? true
      : false
    : false;

/**
 * The arguments the `params` shorthand describes: each key typed by its `type` (default string),
 * required when `required: true` (or, for `"output"`, when it has a `default`), optional otherwise.
 */
export type FromToolParams<TParams, TMode extends SchemaMode = "output"> = Simplify<
  {
    -readonly [TKey in keyof TParams as IsPresent<TParams[TKey], TMode> extends true
      ? TKey
      : never]-?: ParamType<TParams[TKey], TMode>;
  } & {
    -readonly [TKey in keyof TParams as IsPresent<TParams[TKey], TMode> extends true
      ? never
      : TKey]?: ParamType<TParams[TKey], TMode>;
  }
>;

/** True when `params` is a JSON Schema rather than the shorthand (its `type` or `$schema` is text). */
export function isJsonSchemaLike(params: Record<string, unknown>): boolean {
  return typeof params.type === "string" || Array.isArray(params.type) || typeof params.$schema === "string";
}

/** Turns the `params` shorthand into a JSON Schema object (without `additionalProperties`). */
export function paramsToJsonSchema(params: Record<string, unknown>, toolName: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, entry] of Object.entries(params)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new LlmError(
        "TOOL_INVALID",
        `tool '${toolName}' param '${key}': expected an object like { type, description, required }, ` +
          `got ${entry === null ? "null" : Array.isArray(entry) ? "an array" : typeof entry}`,
      );
    }
    const { type, description, desc, required: isRequired, ...keywords } = entry as ToolParam;
    if (isRequired !== undefined && typeof isRequired !== "boolean") {
      throw new LlmError(
        "TOOL_INVALID",
        `tool '${toolName}' param '${key}': 'required' must be true or false, got ${typeof isRequired}`,
      );
    }
    const text = description ?? desc;
    properties[key] = {
      type: type ?? "string",
      ...(text === undefined ? {} : { description: text }),
      ...keywords,
    };
    if (isRequired === true) required.push(key);
  }
  return { type: "object", properties, required };
}
