/** One option a component accepts in its URI query. */
export type OptionSpec =
  | { readonly type: "string"; readonly default?: string; readonly description?: string }
  | {
      readonly type: "integer" | "number";
      readonly default?: number;
      readonly min?: number;
      readonly max?: number;
      readonly description?: string;
    }
  | { readonly type: "boolean"; readonly default?: boolean; readonly description?: string }
  | {
      readonly type: "enum";
      readonly values: readonly string[];
      readonly default?: string;
      readonly description?: string;
    }
  | { readonly type: "list"; readonly default?: readonly string[]; readonly description?: string };

/** The options a component accepts, by name. */
export type OptionSchema = { readonly [name: string]: OptionSpec };

type ValueOf<TSpec extends OptionSpec> = TSpec extends { type: "string" }
  ? string
  : TSpec extends { type: "integer" | "number" }
    ? number
    : TSpec extends { type: "boolean" }
      ? boolean
      : TSpec extends { type: "enum"; values: readonly (infer TValue)[] }
        ? TValue
        : readonly string[];

/** The parsed options of a schema: options with a default are always present. */
export type OptionsOf<TSchema extends OptionSchema> = {
  -readonly [K in keyof TSchema]: TSchema[K] extends { default: unknown }
    ? ValueOf<TSchema[K]>
    : ValueOf<TSchema[K]> | undefined;
};
