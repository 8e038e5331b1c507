import type { JsonSchema } from "../tool-types.js";
import type { FromJsonSchema, SchemaMode } from "./json-schema-type.js";
import type { StandardSchemaV1 } from "./standard-schema.js";

/** What a tool or an llm step's output may be described with: a JSON Schema or a Standard Schema. */
export type ToolInputSchema = JsonSchema | StandardSchemaV1;

/** The value a Standard Schema validates to, or accepts (`~standard.types`). */
type StandardType<TSchema, TMode extends SchemaMode> = TSchema extends {
  readonly "~standard": { readonly types?: infer TTypes };
}
  ? NonNullable<TTypes> extends { readonly input: infer TInput; readonly output: infer TOutput }
    ? TMode extends "output"
      ? TOutput
      : TInput
    : unknown
  : unknown;

/**
 * The type of the value a schema validates to: a Standard Schema's output type (zod 4, Valibot,
 * ArkType), or the type a JSON Schema written `as const` describes (see `FromJsonSchema`; a
 * property with a `default` is present). A schema typed only as `JsonSchema` gives
 * `Record<string, unknown>`.
 */
export type SchemaOutput<TSchema> = SchemaType<TSchema, "output">;

/** The type of the value a schema accepts: a Standard Schema's input type, or the JSON Schema's. */
export type SchemaInput<TSchema> = SchemaType<TSchema, "input">;

type SchemaType<TSchema, TMode extends SchemaMode> = TSchema extends { readonly "~standard": unknown }
  ? StandardType<TSchema, TMode>
  : string extends keyof TSchema
    ? Record<string, unknown>
    : FromJsonSchema<TSchema, TMode>;
