import { messageOf } from "@routekit/core/internal";
import { LlmError } from "../errors.js";
import { validateSchema } from "../schema/compile-schema.js";
import { normalizeInputSchema } from "../schema/input-schema.js";
import {
  type FromToolParams,
  isJsonSchemaLike,
  paramsToJsonSchema,
  type ToolParams,
} from "../schema/params-shorthand.js";
import type { ToolInputSchema } from "../schema/schema-type.js";
import { isStandardSchema } from "../schema/standard-schema.js";
import type { JsonSchema, Tool, ToolCallContext } from "../tool-types.js";
import {
  checkToolName,
  createTool,
  isCreatedTool,
  type ToolArguments,
  type ToolCallArguments,
  type ToolValue,
} from "./create-tool.js";
import { describeValue } from "./describe-value.js";

const EXPECTED = "expected an object with name and execute/call, a tool class, or a route tool";
const HANDLER_KEYS = ["execute", "handler", "call"] as const;
const SCHEMA_KEYS = ["inputSchema", "parameters", "params"] as const;
const SOURCES: readonly unknown[] = ["route", "http", "native"];

type Handler = (args: Record<string, unknown>, context: ToolCallContext) => unknown;

/** A tool's handler under any of the names `toTool` reads: `execute`, `handler` or `call`. */
export type ToolHandlerOf<TArgs, TOutput> =
  | { execute: (args: TArgs, context: ToolCallContext) => TOutput }
  | { handler: (args: TArgs, context: ToolCallContext) => TOutput }
  | { call: (args: TArgs, context: ToolCallContext) => TOutput };

/** The plain-object tool shapes `toTool` types from their schema. */
export type ToolObject<TSchema extends ToolInputSchema, TOutput> = { name: string; description?: string } & (
  | { inputSchema: TSchema }
  | { parameters: TSchema }
  | { params: TSchema }
) &
  ToolHandlerOf<ToolArguments<TSchema>, TOutput>;

/** A tool object using the `params` shorthand: `{ city: { type: "string", required: true } }`. */
export type ToolParamsObject<TParams extends ToolParams, TOutput> = {
  name: string;
  description?: string;
  params: TParams;
} & ToolHandlerOf<FromToolParams<TParams>, TOutput>;

/** A tool object without a schema: it takes an object of any arguments. */
export type UntypedToolObject<TOutput> = { name: string; description?: string } & ToolHandlerOf<
  Record<string, unknown>,
  TOutput
>;

/**
 * Any other value `toTool` adapts at run time (a class, an object of another shape, a value of
 * unknown type) — except an object whose schema and handler the typed forms above refuse: its
 * handler's declared arguments do not match its schema, which is a compile error.
 */
export type OtherToolValue<TValue> = TValue extends
  | { inputSchema: ToolInputSchema }
  | { parameters: ToolInputSchema }
  | { params: ToolInputSchema }
  ? TValue extends ToolHandlerOf<never, unknown>
    ? never
    : unknown
  : unknown;

/**
 * Adapts any tool shape into a `Tool`: an object with `name` and `execute`/`handler`/`call` (a
 * plain object or a class instance, with `params` shorthand, `inputSchema` or `parameters`), a
 * class (instantiated with no arguments), or an existing `Tool` (returned as is). Idempotent.
 * Anything else throws `LlmError` `TOOL_INVALID` naming what it got.
 */
export function toTool<TInput, TOutput>(value: Tool<TInput, TOutput>): Tool<TInput, TOutput>;
export function toTool<const TParams extends ToolParams, TOutput>(
  value: ToolParamsObject<TParams, TOutput>,
): Tool<FromToolParams<TParams, "input">, ToolValue<TOutput>>;
export function toTool<const TSchema extends ToolInputSchema, TOutput>(
  value: ToolObject<TSchema, TOutput>,
): Tool<ToolCallArguments<TSchema>, ToolValue<TOutput>>;
export function toTool<TOutput>(
  value: UntypedToolObject<TOutput>,
): Tool<Record<string, unknown>, ToolValue<TOutput>>;
export function toTool<TValue>(value: TValue & OtherToolValue<TValue>): Tool;
export function toTool(value: unknown): Tool {
  if (isCreatedTool(value)) return value;
  if (typeof value === "function") {
    if (!isToolClass(value)) throw cannotAdapt(value, EXPECTED);
    return fromObject(instantiate(value));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw cannotAdapt(value, EXPECTED);
  if (isCompleteTool(value)) return checkCompleteTool(value);
  return fromObject(value);
}

/** Adapts every item with `toTool` into a map by name; a repeated name is `TOOL_DUPLICATE`. */
export function toTools(list: readonly unknown[]): Map<string, Tool> {
  if (!Array.isArray(list)) {
    throw new LlmError("TOOL_INVALID", `toTools expects an array of tools, got ${describeValue(list)}`);
  }
  const tools = new Map<string, Tool>();
  const positions = new Map<string, number>();
  list.forEach((item: unknown, index) => {
    let tool: Tool;
    try {
      tool = toTool(item);
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      throw new LlmError(error.code, `tools[${index}]: ${error.message}`, { cause: error });
    }
    const first = positions.get(tool.name);
    if (first !== undefined) {
      throw new LlmError(
        "TOOL_DUPLICATE",
        `duplicate tool name '${tool.name}': tools[${first}] and tools[${index}] both use it`,
      );
    }
    positions.set(tool.name, index);
    tools.set(tool.name, tool);
  });
  return tools;
}

function fromObject(object: object): Tool {
  const record = object as Record<string, unknown>;
  if (typeof record.name !== "string") {
    throw cannotAdapt(object, `expected a string 'name', found ${describeValue(record.name)}`);
  }
  const name = checkToolName(record.name);
  return createTool({
    name,
    description: record.description as string | undefined,
    inputSchema: schemaOf(record, name),
    execute: handlerOf(record, name),
    source: "native",
    original: object,
  });
}

function handlerOf(record: Record<string, unknown>, name: string): Handler {
  for (const key of HANDLER_KEYS) {
    const candidate = record[key];
    if (candidate === undefined) continue;
    if (typeof candidate !== "function") {
      throw new LlmError(
        "TOOL_INVALID",
        `tool '${name}': '${key}' must be a function, got ${describeValue(candidate)}`,
      );
    }
    return (args, context) => candidate.call(record, args, context);
  }
  throw cannotAdapt(record, `tool '${name}' has no execute, handler or call function`);
}

function schemaOf(record: Record<string, unknown>, name: string): JsonSchema | undefined {
  const given = SCHEMA_KEYS.filter((key) => record[key] !== undefined);
  if (given.length > 1) {
    throw new LlmError(
      "TOOL_INVALID",
      `tool '${name}' gives both '${given[0]}' and '${given[1]}': give one schema`,
    );
  }
  const key = given[0];
  if (key === undefined) return undefined;
  const schema = record[key];
  const isShorthand =
    key === "params" &&
    typeof schema === "object" &&
    schema !== null &&
    !Array.isArray(schema) &&
    !isStandardSchema(schema) &&
    !isJsonSchemaLike(schema as Record<string, unknown>);
  return isShorthand ? paramsToJsonSchema(schema as Record<string, unknown>, name) : (schema as JsonSchema);
}

function isToolClass(value: Function): boolean {
  const prototype: unknown = value.prototype;
  if (typeof prototype !== "object" || prototype === null) return false;
  const methods = prototype as Record<string, unknown>;
  if (typeof methods.execute === "function" || typeof methods.call === "function") return true;
  return /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function instantiate(toolClass: Function): object {
  try {
    return new (toolClass as new () => object)();
  } catch (error) {
    const reason = messageOf(error);
    throw new LlmError(
      "TOOL_INVALID",
      `cannot adapt ${describeValue(toolClass)} into a tool: instantiating it with no arguments failed: ${reason}`,
      { cause: error },
    );
  }
}

function isCompleteTool(value: object): value is Tool {
  const record = value as Record<string, unknown>;
  return (
    typeof record.name === "string" &&
    typeof record.description === "string" &&
    typeof record.inputSchema === "object" &&
    record.inputSchema !== null &&
    SOURCES.includes(record.source) &&
    typeof record.execute === "function"
  );
}

function checkCompleteTool(tool: Tool): Tool {
  checkToolName(tool.name);
  validateSchema(normalizeInputSchema(tool.inputSchema, tool.name), tool.name);
  return tool;
}

function cannotAdapt(value: unknown, reason: string): LlmError {
  return new LlmError("TOOL_INVALID", `cannot adapt ${describeValue(value)} into a tool: ${reason}`);
}
