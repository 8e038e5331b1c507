import { LlmError } from "../errors.js";
import type { JsonSchema } from "../tool-types.js";

/**
 * The Standard Schema v1 interface (zod 4, Valibot, ArkType and friends), reduced to what routekit
 * reads. Defined here so no schema library is a dependency.
 */
export interface StandardSchemaV1<TInput = unknown, TOutput = TInput> {
  readonly "~standard": StandardSchemaV1Props<TInput, TOutput>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaV1Props<TInput = unknown, TOutput = TInput> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
  ) => StandardSchemaV1Result<TOutput> | Promise<StandardSchemaV1Result<TOutput>>;
  readonly types?: { readonly input: TInput; readonly output: TOutput } | undefined;
  /** Standard JSON Schema v1: present on libraries that can describe themselves as JSON Schema. */
  readonly jsonSchema?: {
    readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  };
}

/** What `~standard.validate` gives back: the parsed value, or the issues. */
export type StandardSchemaV1Result<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | { readonly issues: readonly StandardSchemaV1Issue[] };

/** One validation problem, with the path to the value at fault. */
export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** True when `value` carries a Standard Schema `~standard` property with a validate function. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props: unknown = (value as Record<string, unknown>)["~standard"];
  return typeof props === "object" && props !== null && typeof Reflect.get(props, "validate") === "function";
}

/**
 * A JSON Schema for a tool's input. A JSON Schema is returned as given; a Standard Schema is
 * converted once through `~standard.jsonSchema`, its own `toJSONSchema()` method or a
 * `jsonSchema` property, and refused with a clear error when it offers none of them.
 */
export function toJsonSchema(input: JsonSchema | StandardSchemaV1, toolName?: string): JsonSchema {
  if (!isStandardSchema(input)) return input as JsonSchema;
  const where = toolName === undefined ? "the input schema" : `the input schema of tool '${toolName}'`;
  const vendor = String(input["~standard"].vendor);
  let converted: unknown;
  try {
    converted = convert(input);
  } catch (error) {
    throw new LlmError(
      "TOOL_INVALID",
      `${where} (Standard Schema, vendor "${vendor}") could not be converted to JSON Schema: ` +
        `${error instanceof Error ? error.message : String(error)}; pass a JSON Schema instead`,
      { cause: error },
    );
  }
  if (converted === undefined) {
    throw new LlmError(
      "TOOL_INVALID",
      `${where} is a Standard Schema (vendor "${vendor}") that cannot describe itself as JSON Schema ` +
        `(no ~standard.jsonSchema, toJSONSchema() or jsonSchema): pass a JSON Schema instead`,
    );
  }
  if (typeof converted !== "object" || converted === null || Array.isArray(converted)) {
    throw new LlmError(
      "TOOL_INVALID",
      `${where} (Standard Schema, vendor "${vendor}") converted to ${typeof converted}, not a JSON Schema object`,
    );
  }
  return converted as JsonSchema;
}

function convert(schema: StandardSchemaV1): unknown {
  const standardJson = schema["~standard"].jsonSchema;
  if (typeof standardJson?.input === "function") return standardJson.input({ target: "draft-2020-12" });
  const own = schema as unknown as Record<string, unknown>;
  for (const method of ["toJSONSchema", "toJsonSchema"]) {
    const candidate = own[method];
    if (typeof candidate === "function") return candidate.call(schema);
  }
  return own.jsonSchema;
}
