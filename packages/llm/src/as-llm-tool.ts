import {
  defineContextProperty,
  defineRouteAspect,
  defineVerb,
  type RouteContext,
  RoutekitError,
} from "@routekit/core";
import { LlmError } from "./errors.js";
import { createRouteTool, type LlmToolAspect } from "./route-tool.js";
import { validateSchema } from "./schema/compile-schema.js";
import { type StandardSchemaV1, toJsonSchema } from "./schema/standard-schema.js";
import { ToolRegistry } from "./tool-registry.js";
import { type JsonSchema, TOOL_NAME_PATTERN } from "./tool-types.js";

/** Options of `asLlmTool`. */
export interface AsLlmToolOptions {
  /** What the tool does, for the model. Required and non-blank. */
  description: string;
  /** The arguments' JSON Schema (root `type: "object"`) or a Standard Schema (zod 4 and friends). */
  input?: JsonSchema | StandardSchemaV1;
}

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /**
     * Exposes this route as an LLM tool named `name` in the context's tool registry.
     * Must follow `from(...)` directly. The route receives the arguments object as its body.
     */
    asLlmTool(name: string, options: AsLlmToolOptions): RouteDsl<Record<string, unknown>>;
  }
  interface RouteContext {
    /** The context's tool registry: route tools register themselves; others via `register(x)`. */
    readonly tools: ToolRegistry;
  }
}

const OPEN_OBJECT: JsonSchema = { type: "object", additionalProperties: true };

defineContextProperty("tools", () => new ToolRegistry());

/** The tool registry of a context. */
export function toolRegistryOf(context: RouteContext): ToolRegistry {
  return context.tools;
}

defineVerb("asLlmTool", (recorder, name: string, options: AsLlmToolOptions) => {
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
  const inputSchema = options.input === undefined ? OPEN_OBJECT : toJsonSchema(options.input, name);
  validateSchema(inputSchema, name);
  const aspect: LlmToolAspect = { name, description: options.description, inputSchema };
  route.aspects.llmTool = aspect;
  return undefined;
});

defineRouteAspect("llmTool", {
  added(context, route, aspect) {
    context.tools.register(createRouteTool(context, route, aspect as LlmToolAspect));
  },
  removed(context, _route, aspect) {
    context.tools.unregister((aspect as LlmToolAspect).name);
  },
});
