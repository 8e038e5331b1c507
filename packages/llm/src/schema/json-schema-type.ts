/**
 * The TypeScript type a JSON Schema describes, for schemas written `as const` (or inline where a
 * `const` type parameter infers them). Covers what tool and output schemas use: `type` (one or a
 * list), `const`, `enum`, `anyOf`/`oneOf`, `properties` with `required`, `additionalProperties`
 * and `items`. Anything else (`$ref`, `allOf`, `not`, conditionals) is `unknown`.
 *
 * `"output"` is the value after validation, where a property with a `default` is always present;
 * `"input"` is what a caller may send, where it is optional.
 */
export type FromJsonSchema<TSchema, TMode extends SchemaMode = "output"> = TSchema extends boolean
  ? unknown
  : TSchema extends { readonly const: infer TConst }
    ? TConst
    : TSchema extends { readonly enum: readonly (infer TValue)[] }
      ? TValue
      : TSchema extends { readonly anyOf: readonly (infer TMember)[] }
        ? FromJsonSchema<TMember, TMode>
        : TSchema extends { readonly oneOf: readonly (infer TMember)[] }
          ? FromJsonSchema<TMember, TMode>
          : TSchema extends { readonly type: infer TType }
            ? FromTypeKeyword<TType, TSchema, TMode>
            : TSchema extends { readonly properties: object }
              ? FromObjectSchema<TSchema, TMode>
              : unknown;

/** Which side of validation a type describes: what callers send, or what the tool receives. */
export type SchemaMode = "input" | "output";

/** Flattens an intersection of object types into one object type (for readable hovers). */
export type Simplify<TObject> = { [TKey in keyof TObject]: TObject[TKey] } & {};

type FromTypeKeyword<TType, TSchema, TMode extends SchemaMode> = TType extends readonly (infer TName)[]
  ? FromTypeName<TName, TSchema, TMode>
  : FromTypeName<TType, TSchema, TMode>;

type FromTypeName<TName, TSchema, TMode extends SchemaMode> = TName extends "string"
  ? string
  : TName extends "number" | "integer"
    ? number
    : TName extends "boolean"
      ? boolean
      : TName extends "null"
        ? null
        : TName extends "array"
          ? FromArraySchema<TSchema, TMode>
          : TName extends "object"
            ? FromObjectSchema<TSchema, TMode>
            : unknown;

type FromArraySchema<TSchema, TMode extends SchemaMode> = TSchema extends { readonly items: infer TItems }
  ? TItems extends readonly unknown[]
    ? unknown[]
    : FromJsonSchema<TItems, TMode>[]
  : unknown[];

type RequiredKeys<TSchema> = TSchema extends { readonly required: readonly (infer TKey)[] } ? TKey : never;

type DefaultedKeys<TProperties> = {
  [TKey in keyof TProperties]: TProperties[TKey] extends { readonly default: unknown } ? TKey : never;
}[keyof TProperties];

type PresentKeys<TSchema, TProperties, TMode extends SchemaMode> =
  | RequiredKeys<TSchema>
  | (TMode extends "output" ? DefaultedKeys<TProperties> : never);

type AdditionalProperties<TSchema> = TSchema extends { readonly additionalProperties: false }
  ? unknown
  : { [key: string]: unknown };

type FromObjectSchema<TSchema, TMode extends SchemaMode> = TSchema extends {
  readonly properties: infer TProperties extends object;
}
  ? [keyof TProperties] extends [never]
    ? ClosedOrOpen<TSchema>
    : Simplify<
        {
          -readonly [TKey in keyof TProperties as TKey extends PresentKeys<TSchema, TProperties, TMode>
            ? TKey
            : never]-?: FromJsonSchema<TProperties[TKey], TMode>;
        } & {
          -readonly [TKey in keyof TProperties as TKey extends PresentKeys<TSchema, TProperties, TMode>
            ? never
            : TKey]?: FromJsonSchema<TProperties[TKey], TMode>;
        } & AdditionalProperties<TSchema>
      >
  : ClosedOrOpen<TSchema>;

type ClosedOrOpen<TSchema> = TSchema extends { readonly additionalProperties: false }
  ? Record<string, never>
  : Record<string, unknown>;
