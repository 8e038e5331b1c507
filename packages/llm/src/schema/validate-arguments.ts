import type { ErrorObject } from "ajv";
import type { SchemaIssue } from "../errors.js";
import type { Tool } from "../tool-types.js";
import { compileSchema } from "./compile-schema.js";
import { copyJsonData } from "./copy-json-data.js";
import {
  type ArgumentsValidation,
  describeIssues,
  standardSchemaOf,
  validateWithStandardSchema,
  validateWithStandardSchemaNow,
} from "./standard-validation.js";

// Values a full validation produced, with the tool they were validated for: a tool's own execute
// skips validating them again (a transforming Standard Schema must not run twice on its output).
const validatedValues = new WeakMap<object, Tool>();

/**
 * Checks a tool call's arguments against the tool's input schema (ajv, every error listed with its
 * path, undeclared arguments dropped where the schema forbids them) and, for a tool made from a
 * Standard Schema, against that schema's own `validate` when it answers synchronously. Works on a
 * copy: `args` is never changed. Never throws: a failure carries a message the model can act on.
 */
export function validateToolArguments(tool: Tool, args: unknown): ArgumentsValidation {
  const checked = validateAgainstJsonSchema(tool, args, false);
  if (!checked.ok) return checked;
  const standard = standardSchemaOf(tool);
  if (standard === undefined) return remember(tool, checked);
  const outcome = validateWithStandardSchemaNow(tool, standard, checked.value);
  // An asynchronous Standard Schema could not run: the value is not remembered as validated.
  return outcome === undefined ? checked : remember(tool, outcome);
}

/** `validateToolArguments`, also waiting for a Standard Schema whose `validate` is asynchronous. */
export function validateToolArgumentsAsync(tool: Tool, args: unknown): Promise<ArgumentsValidation> {
  try {
    const outcome = validateFully(tool, args, false);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Both schemas, as `validateToolArgumentsAsync`, but answered at once (no promise) unless a
 * Standard Schema has to be waited for: the tool loop then starts the call in the same tick.
 * `owned`: `args` are plain JSON data the caller just parsed itself and hands over (arguments a
 * call sent as text), checked in place instead of on a copy.
 */
export function validateFully(
  tool: Tool,
  args: unknown,
  owned: boolean,
): ArgumentsValidation | Promise<ArgumentsValidation> {
  const checked = validateAgainstJsonSchema(tool, args, owned);
  if (!checked.ok) return checked;
  const standard = standardSchemaOf(tool);
  if (standard === undefined) return remember(tool, checked);
  return validateWithStandardSchema(tool, standard, checked.value).then((outcome) => remember(tool, outcome));
}

/** True when `args` is the value a full validation for `tool` produced (so it needs no second one). */
export function isValidatedFor(tool: Tool, args: unknown): boolean {
  return typeof args === "object" && args !== null && validatedValues.get(args) === tool;
}

function remember(tool: Tool, outcome: ArgumentsValidation): ArgumentsValidation {
  if (outcome.ok) validatedValues.set(outcome.value, tool);
  return outcome;
}

/** `owned`: `args` came from the caller's own JSON.parse and is not held elsewhere (no copy needed). */
function validateAgainstJsonSchema(tool: Tool, args: unknown, owned: boolean): ArgumentsValidation {
  const prefix = `invalid arguments for tool '${tool.name}'`;
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    const reason = `expected a JSON object of arguments, got ${kindOf(args)}`;
    return { ok: false, message: `${prefix}: ${reason}`, issues: [{ path: "", message: reason }] };
  }
  let validate: ReturnType<typeof compileSchema>;
  try {
    validate = compileSchema(tool.inputSchema, tool.name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, issues: [{ path: "", message }] };
  }
  let copy = args as Record<string, unknown>;
  try {
    if (!owned) copy = (copyJsonData(args) ?? structuredClone(args)) as Record<string, unknown>;
  } catch (error) {
    const reason = `arguments must be plain JSON data (${error instanceof Error ? error.message : String(error)})`;
    return { ok: false, message: `${prefix}: ${reason}`, issues: [{ path: "", message: reason }] };
  }
  if (validate(copy)) return { ok: true, value: copy };
  const issues = issuesOf(validate.errors);
  return { ok: false, message: `${prefix}: ${describeIssues(issues)}`, issues };
}

/** ajv's errors as `SchemaIssue`s, each with its path and a message naming allowed values. */
export function issuesOf(errors: readonly ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((error) => ({ path: error.instancePath, message: describeError(error) }));
}

function describeError(error: ErrorObject): string {
  let reason = error.message ?? `fails '${error.keyword}'`;
  if (error.keyword === "enum") {
    const allowed: unknown = error.params.allowedValues;
    if (Array.isArray(allowed)) reason += ` (${allowed.map((value) => JSON.stringify(value)).join(", ")})`;
  }
  if (error.keyword === "const") reason += ` (${JSON.stringify(error.params.allowedValue)})`;
  return reason;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string ${JSON.stringify(shorten(value))}`;
  return `a ${typeof value}`;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
