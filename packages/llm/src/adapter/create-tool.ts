import { LlmError } from "../errors.js";
import { validateSchema } from "../schema/compile-schema.js";
import { resolveInputSchema } from "../schema/input-schema.js";
import type { SchemaInput, SchemaOutput, ToolInputSchema } from "../schema/schema-type.js";
import { attachStandardSchema } from "../schema/standard-validation.js";
import { isValidatedFor, validateToolArgumentsAsync } from "../schema/validate-arguments.js";
import {
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolCallContext,
  type ToolDurability,
  type ToolResult,
  type ToolSource,
} from "../tool-types.js";
import { runToolHandler } from "./run-tool-handler.js";
import { errorResult } from "./tool-result.js";

/**
 * Everything needed to make a `Tool`; `execute` may return anything and may throw. Its arguments
 * are typed by `inputSchema` (a Standard Schema's output type, or a JSON Schema's written inline
 * or `as const`).
 */
export interface ToolDefinition<
  TSchema extends ToolInputSchema | undefined = ToolInputSchema | undefined,
  TOutput = unknown,
> {
  name: string;
  description?: string;
  /** A JSON Schema object (root `type: "object"`) or a Standard Schema; none means no arguments. */
  inputSchema?: TSchema;
  execute: (args: ToolArguments<TSchema>, context: ToolCallContext) => TOutput;
  source?: ToolSource;
  original?: unknown;
  /** What a durable run does with the tool beyond calling it (approval, effects once). */
  durability?: ToolDurability;
  /** Longest result the model reads, in characters; a longer one is cut with a note. */
  maxResultChars?: number;
}

/** The arguments a tool's handler receives: validated against its schema (an object without one). */
export type ToolArguments<TSchema> = TSchema extends undefined
  ? Record<string, unknown>
  : unknown extends SchemaOutput<TSchema>
    ? Record<string, unknown>
    : SchemaOutput<TSchema>;

/** The arguments a caller sends to a tool (before defaults and transforms of its schema). */
export type ToolCallArguments<TSchema> = TSchema extends undefined
  ? Record<string, unknown>
  : unknown extends SchemaInput<TSchema>
    ? Record<string, unknown>
    : SchemaInput<TSchema>;

/** What a call of a handler returning `TOutput` resolves to: its value, or a returned ToolResult's value. */
export type ToolValue<TOutput> =
  Awaited<TOutput> extends ToolResult<infer TValue> ? TValue : Awaited<TOutput>;

const CREATED = Symbol("routekit.tool");

/** True for a tool made by `createTool` (and so by `toTool`). */
export function isCreatedTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null && Object.hasOwn(value, CREATED);
}

/**
 * Makes a `Tool` from a definition: checks the name and the schema (a Standard Schema is converted
 * to JSON Schema once), and wraps `execute` so that arguments are validated first (unless they are
 * the value `validateToolArguments` already produced for this tool), the result is
 * always a `ToolResult`, errors become error results and `context.timeoutMs`/`signal` are honoured.
 */
export function createTool<const TSchema extends ToolInputSchema | undefined = undefined, TOutput = unknown>(
  definition: ToolDefinition<TSchema, TOutput>,
): Tool<ToolCallArguments<TSchema>, ToolValue<TOutput>>;
export function createTool(definition: ToolDefinition): Tool {
  const name = checkToolName(definition.name);
  const description = definition.description ?? "";
  if (typeof description !== "string") {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}': description must be a string, got ${typeof description}`,
    );
  }
  if (typeof definition.execute !== "function") {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}': execute must be a function, got ${typeof definition.execute}`,
    );
  }
  const { schema, standard } = resolveInputSchema(definition.inputSchema, name);
  validateSchema(schema, name);
  const handler = definition.execute;
  const tool: Tool = {
    name,
    description,
    inputSchema: schema,
    source: definition.source ?? "native",
    original: definition.original,
    execute: (args: Record<string, unknown>, context: ToolCallContext = {}): Promise<ToolResult> => {
      try {
        if (isValidatedFor(tool, args)) return runToolHandler(name, handler, args, context);
        return validateToolArgumentsAsync(tool, args).then((checked) =>
          checked.ok ? runToolHandler(name, handler, checked.value, context) : errorResult(checked.message),
        );
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  if (definition.durability !== undefined) {
    Object.assign(tool, { durability: checkDurability(definition.durability, name) });
  }
  if (definition.maxResultChars !== undefined) {
    Object.assign(tool, { maxResultChars: checkMaxResultChars(definition.maxResultChars, name) });
  }
  Object.defineProperty(tool, CREATED, { value: true });
  if (standard !== undefined) attachStandardSchema(tool, standard);
  return Object.freeze(tool);
}

/** Returns `name` when it is a valid tool name; throws `TOOL_INVALID` saying what is allowed otherwise. */
export function checkToolName(name: unknown): string {
  if (typeof name === "string" && TOOL_NAME_PATTERN.test(name)) return name;
  const found = typeof name === "string" ? JSON.stringify(name) : `a ${name === null ? "null" : typeof name}`;
  throw new LlmError(
    "TOOL_INVALID",
    `invalid tool name ${found}: a tool name must match ${TOOL_NAME_PATTERN.source} ` +
      `(1 to 64 letters, digits, '_' or '-')`,
  );
}

/** `maxResultChars` as given when it is an integer >= 1; `TOOL_INVALID` saying what was found otherwise. */
function checkMaxResultChars(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new LlmError(
    "TOOL_INVALID",
    `tool '${name}': option 'maxResultChars' must be an integer >= 1, got ${typeof value === "number" ? value : typeof value}`,
  );
}

/** `durability` as given, when its fields are what they must be; `TOOL_INVALID` saying which is not. */
function checkDurability(durability: ToolDurability, name: string): ToolDurability {
  const { needsApproval, effect, reconcile } = durability;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== "boolean" &&
    typeof needsApproval !== "function"
  ) {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}': durability.needsApproval must be a boolean or a function (args, context) => boolean, got ${typeof needsApproval}`,
    );
  }
  if (effect !== undefined && effect !== "once" && effect !== "repeatable") {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}': durability.effect must be "once" or "repeatable", got ${JSON.stringify(effect)}`,
    );
  }
  if (reconcile !== undefined && typeof reconcile !== "function") {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}': durability.reconcile must be a function (args, { effectKey, callId }), got ${typeof reconcile}`,
    );
  }
  return Object.freeze({ ...durability });
}
