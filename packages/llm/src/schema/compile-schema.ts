import { Ajv, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { LlmError } from "../errors.js";
import type { JsonSchema } from "../tool-types.js";

/** The JSON Schema drafts tool schemas may use; a schema without `$schema` is draft-07. */
export type JsonSchemaDraft = "draft-07" | "2019-09" | "2020-12";

interface SchemaCompiler {
  compile(schema: JsonSchema): ValidateFunction;
  removeSchema(schema: JsonSchema): unknown;
}

// ajv ships CommonJS; its named exports (`Ajv`, `Ajv2019`, `Ajv2020`) are the classes under both
// Node's ESM loader and TypeScript's NodeNext rules, where the default import is the module object.
const OPTIONS: Options = {
  allErrors: true,
  // Undeclared arguments are dropped wherever the schema says `additionalProperties: false`.
  removeAdditional: true,
  // A property's `default` fills it in when it is missing: the tool sees the defaulted value.
  useDefaults: true,
  // Unknown keywords are errors; type and tuple hints are not (generated schemas trip them).
  strictSchema: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  // `format` is an annotation for the model: asserting formats needs a formats plugin.
  validateFormats: false,
};

const META_SCHEMAS: Record<JsonSchemaDraft, string> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

const compilers = new Map<JsonSchemaDraft, SchemaCompiler>();
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The draft a schema declares through `$schema` (draft-07 when absent); other drafts are refused. */
export function draftOf(schema: JsonSchema, toolName?: string): JsonSchemaDraft {
  const declared = schema.$schema;
  if (declared === undefined) return "draft-07";
  if (typeof declared === "string") {
    if (declared.includes("draft-07")) return "draft-07";
    if (declared.includes("2019-09")) return "2019-09";
    if (declared.includes("2020-12")) return "2020-12";
  }
  throw new LlmError(
    "TOOL_INVALID",
    `${subject(toolName)} declares an unsupported $schema ${JSON.stringify(declared)}: ` +
      `use draft-07 (the default), 2019-09 or 2020-12`,
  );
}

/**
 * Checks that `schema` is a JSON Schema ajv can compile (valid against its meta-schema, no unknown
 * keyword, every `$ref` resolvable) and caches the compiled validator. Throws `LlmError`
 * `TOOL_INVALID` naming the tool otherwise.
 */
export function validateSchema(schema: JsonSchema, toolName?: string): void {
  compileSchema(schema, toolName);
}

/** The compiled validator of `schema`, compiled once per schema object. */
export function compileSchema(schema: JsonSchema, toolName?: string): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  const draft = draftOf(schema, toolName);
  const compiler = compilerFor(draft);
  const target = schema.$schema === undefined ? schema : { ...schema, $schema: META_SCHEMAS[draft] };
  let validate: ValidateFunction;
  try {
    validate = compiler.compile(target);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LlmError("TOOL_INVALID", `${subject(toolName)} is not a valid JSON Schema: ${reason}`, {
      cause: error,
    });
  } finally {
    // The validator is self-contained; dropping ajv's own reference lets unused schemas be collected
    // and lets two tools use the same `$id`.
    compiler.removeSchema(target);
  }
  compiled.set(schema, validate);
  return validate;
}

function compilerFor(draft: JsonSchemaDraft): SchemaCompiler {
  let compiler = compilers.get(draft);
  if (compiler === undefined) {
    compiler =
      draft === "2020-12"
        ? new Ajv2020(OPTIONS)
        : draft === "2019-09"
          ? new Ajv2019(OPTIONS)
          : new Ajv(OPTIONS);
    compilers.set(draft, compiler);
  }
  return compiler;
}

function subject(toolName: string | undefined): string {
  return toolName === undefined ? "the input schema" : `the input schema of tool '${toolName}'`;
}
