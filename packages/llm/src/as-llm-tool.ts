import { definePlugin, type RouteContext, RoutekitError } from "@routekit/core";
import { defineVerb, installVerbs } from "@routekit/core/internal";
import { AgentRuns } from "./durable/agent-runs.js";
import { LlmError } from "./errors.js";
import { createRouteTool, type LlmToolAspect } from "./route-tool.js";
import { validateSchema } from "./schema/compile-schema.js";
import { normalizeInputSchema } from "./schema/input-schema.js";
import type { SchemaOutput, ToolInputSchema } from "./schema/schema-type.js";
import { toJsonSchema } from "./schema/standard-schema.js";
import { createToolInputGuard, rememberRouteTool } from "./tool-input-guard.js";
import { ToolRegistry } from "./tool-registry.js";
import { type JsonSchema, TOOL_NAME_PATTERN, type ToolDurability } from "./tool-types.js";

/** Options of `asLlmTool`. */
export interface AsLlmToolOptions<TInput extends ToolInputSchema = ToolInputSchema> {
  /** What the tool does, for the model. Required and non-blank. */
  description: string;
  /**
   * The arguments' JSON Schema (root `type: "object"`) or a Standard Schema (zod 4 and friends).
   * It types the route's body: a Standard Schema by its output type, a JSON Schema written inline
   * or `as const` by what it describes.
   */
  input?: TInput;
  /**
   * Who is checked against `input` before the route runs: `"always"` (default: every caller, so
   * `context.request` and other routes' `to` too, with the same error as the model gets) or
   * `"model-only"` (only calls from an llm step; direct callers reach the route unchecked).
   */
  validate?: "always" | "model-only";
  /**
   * What a durable run does with the tool beyond calling it: `needsApproval` parks the run until a
   * person answers, `effect: "once"` never repeats a call whose outcome a crash left unknown.
   */
  durability?: ToolDurability;
  /**
   * Longest result the model reads, in characters; a longer one is cut with a note saying how much
   * was cut (overrides the step's `maxToolResultChars`, default 32000).
   */
  maxResultChars?: number;
}

/**
 * The body of a tool route after `asLlmTool`: the schema's validated type, or, without a schema,
 * the body type the route already had (`from<T>()`), else an object of arguments.
 */
export type LlmToolBody<TInput, TBody> = [TInput] extends [never]
  ? unknown extends TBody
    ? Record<string, unknown>
    : TBody
  : unknown extends SchemaOutput<TInput>
    ? Record<string, unknown>
    : SchemaOutput<TInput>;

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /**
     * Exposes this route as an LLM tool named `name` in the context's tool registry.
     * Must follow `from(...)` directly. The route receives the arguments object as its body,
     * validated against `input` (see `validate`) and typed from it.
     */
    asLlmTool<const TInput extends ToolInputSchema = never>(
      name: string,
      options: AsLlmToolOptions<TInput>,
    ): RouteDsl<LlmToolBody<TInput, TBody>>;
  }
  interface RouteContext {
    /** The context's tool registry: route tools register themselves; others via `register(x)`. */
    readonly tools: ToolRegistry;
    /** Durable agent runs of every instance sharing the store of `llmPlugin({ durable })`: list, approve, resume. */
    readonly agents: AgentRuns;
  }
}

const OPEN_OBJECT: JsonSchema = { type: "object", additionalProperties: true };

/** The tool registry of a context. */
export function toolRegistryOf(context: RouteContext): ToolRegistry {
  return context.tools;
}

installVerbs({
  asLlmTool: defineVerb({
    record: (recorder, name: string, options: AsLlmToolOptions) => {
      const route = recorder.route;
      const where = `Route '${route.id || route.from}'`;
      if (!recorder.isRoot || recorder.position !== 0) {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `${where}: asLlmTool('${String(name)}') must directly follow from(...), before any step`,
        );
      }
      if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
        throw new LlmError(
          "TOOL_INVALID",
          `${where}: tool name must match ${TOOL_NAME_PATTERN} (found ${JSON.stringify(name)})`,
        );
      }
      if (
        options === null ||
        typeof options !== "object" ||
        typeof options.description !== "string" ||
        options.description.trim() === ""
      ) {
        throw new LlmError("TOOL_INVALID", `${where}: asLlmTool('${name}') needs a non-blank description`);
      }
      if (route.aspects.llmTool !== undefined) {
        throw new LlmError("TOOL_INVALID", `${where}: asLlmTool() is given twice`);
      }
      const validate = options.validate ?? "always";
      if (validate !== "always" && validate !== "model-only") {
        throw new LlmError(
          "OPTION_INVALID",
          `${where}: asLlmTool('${name}') option 'validate' must be "always" or "model-only" (found ${JSON.stringify(validate)})`,
        );
      }
      const { maxResultChars } = options;
      if (maxResultChars !== undefined && !(Number.isInteger(maxResultChars) && maxResultChars >= 1)) {
        throw new LlmError(
          "OPTION_INVALID",
          `${where}: asLlmTool('${name}') option 'maxResultChars' must be an integer >= 1 (found ${String(maxResultChars)})`,
        );
      }
      const inputSchema =
        options.input === undefined
          ? OPEN_OBJECT
          : normalizeInputSchema(toJsonSchema(options.input, name), name);
      validateSchema(inputSchema, name);
      const aspect: LlmToolAspect = {
        name,
        description: options.description,
        inputSchema,
        validate,
        ...(options.input === undefined ? {} : { input: options.input }),
        ...(options.durability === undefined ? {} : { durability: options.durability }),
        ...(options.maxResultChars === undefined ? {} : { maxResultChars: options.maxResultChars }),
      };
      route.aspects.llmTool = aspect;
      if (validate === "model-only") return undefined;
      return { type: "process", processor: createToolInputGuard(aspect), label: `asLlmTool(${name})` };
    },
  }),
});

/**
 * What `@routekit/llm` gives every context: its own tool registry (`context.tools`) and the
 * handler that turns `asLlmTool` routes into tools when they are added (and back when removed).
 */
definePlugin({
  name: "routekit-llm-tools",
  everyContext: true,
  setup: () => ({
    properties: { tools: () => new ToolRegistry(), agents: (context) => new AgentRuns(context) },
    aspects: {
      llmTool: {
        added(context, route, aspect) {
          const tool = context.tools.register(createRouteTool(context, route, aspect as LlmToolAspect));
          rememberRouteTool(context, aspect as LlmToolAspect, tool);
        },
        removed(context, _route, aspect) {
          context.tools.unregister((aspect as LlmToolAspect).name);
        },
        // For context.describe(): the tool as a model sees it (a Standard Schema as its JSON Schema).
        describe(aspect) {
          const tool = aspect as LlmToolAspect;
          return {
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            validate: tool.validate ?? "always",
          };
        },
      },
    },
  }),
});
