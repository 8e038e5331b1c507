import type { RouteContext, RouteStatus } from "@routekit/core";
import { type StepShape, safeUri, stepShape, urisOf } from "./step-shape.js";
import type { StatsRegistry, StepStats } from "./step-stats.js";

type Known = Parameters<typeof stepShape>[2];

/** A tool the llm step can call, as the registry describes it. */
export interface GraphTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

export interface GraphRoute {
  readonly id: string;
  readonly from: string;
  readonly description: string | undefined;
  readonly state: RouteStatus["state"];
  readonly steps: readonly StepShape[];
  /** Set when the route is an LLM tool. */
  readonly tool: GraphTool | undefined;
}

/** An endpoint no route of this context consumes from or produces to (a timer, http:, mock:, ...). */
export interface GraphEndpoint {
  readonly id: string;
  readonly uri: string;
}

/** `route:<id>` or `endpoint:<uri>` to `route:<id>` or `endpoint:<uri>`. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** What connects them: the endpoint URI, or `tool <name>`. */
  readonly label: string;
  readonly kind: "message" | "tool";
}

/** The route graph the page draws. */
export interface ConsoleGraph {
  readonly routes: readonly GraphRoute[];
  readonly endpoints: readonly GraphEndpoint[];
  readonly edges: readonly GraphEdge[];
  /** Tools registered without a route (httpTool, plain objects). */
  readonly tools: readonly GraphTool[];
}

interface RegistryTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly original?: unknown;
}

/** The context's tools when @routekit/llm is installed (`context.tools`), read without importing it. */
function toolsOf(context: RouteContext): RegistryTool[] {
  const registry = (context as unknown as { tools?: { list?: () => RegistryTool[] } }).tools;
  try {
    return typeof registry?.list === "function" ? registry.list() : [];
  } catch {
    return [];
  }
}

function routeIdOf(tool: RegistryTool): string | undefined {
  const original = tool.original as { routeId?: unknown } | undefined;
  return typeof original?.routeId === "string" ? original.routeId : undefined;
}

/** `direct:a?x=1` and `direct:a` are one endpoint. */
function endpointKey(uri: string): string {
  const question = uri.indexOf("?");
  return question === -1 ? uri : uri.slice(0, question);
}

/** The tool names an `llm:` URI names (`tools=a,b`; `*` for every tool). */
function llmTools(uri: string): string[] {
  const match = /[?&]tools=([^&]*)/.exec(uri);
  return match === null
    ? []
    : decodeURIComponent(match[1]!)
        .split(",")
        .filter((name) => name !== "");
}

/**
 * Steps like `filter` without a block, `idempotentConsumer` or `aggregate` take over the rest of
 * their block: the compiler runs the following steps inside them. They are drawn as the step's
 * block "then", as the counters and step events name them (`#2 filter > #1 to(...)`).
 */
function withRestOfBlock(shape: StepShape, steps: readonly StepStats[], known: Known): StepShape {
  if (shape.path === undefined) return shape;
  const prefix = `${shape.path} > `;
  const inBlocks = new Set<string>();
  const collect = (nested: StepShape): void => {
    for (const block of nested.blocks) {
      for (const step of block.steps) {
        if (step.path !== undefined) inBlocks.add(step.path);
        collect(step);
      }
    }
  };
  collect(shape);
  const rest = steps.filter((step) => step.path === prefix + step.label && !inBlocks.has(step.path));
  if (rest.length === 0) return shape;
  rest.sort((left, right) => left.index - right.index);
  const block = {
    name: "then",
    steps: rest.map((step) => withRestOfBlock(stepShape(step.definition, step.label, known), steps, known)),
  };
  return { ...shape, blocks: [...shape.blocks, block] };
}

/**
 * The route graph from what the console saw compiled (every step, nested blocks included), the
 * context's routes (from URIs, states) and its tool registry (schemas).
 */
export function buildGraph(context: RouteContext, registry: StatsRegistry): ConsoleGraph {
  const tools = toolsOf(context);
  const toolByRoute = new Map<string, GraphTool>();
  const looseTools: GraphTool[] = [];
  for (const tool of tools) {
    const described = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    const routeId = routeIdOf(tool);
    if (routeId === undefined) looseTools.push(described);
    else toolByRoute.set(routeId, described);
  }
  const known = (definition: Parameters<StatsRegistry["ofDefinition"]>[0]) =>
    registry.ofDefinition(definition);
  const routes: GraphRoute[] = context.routes().map((status) => {
    const stats = registry.routes.get(status.id);
    const steps = (stats?.topLevel() ?? []).map((step) =>
      withRestOfBlock(stepShape(step.definition, step.label, known), stats?.steps ?? [], known),
    );
    return {
      id: status.id,
      from: safeUri(status.from),
      description: status.description,
      state: status.state,
      steps,
      tool: toolByRoute.get(status.id),
    };
  });
  const consumers = new Map(routes.map((route) => [endpointKey(route.from), route.id]));
  const endpoints = new Map<string, GraphEndpoint>();
  const edges: GraphEdge[] = [];
  const endpointNode = (uri: string): string => {
    const key = endpointKey(uri);
    const id = `endpoint:${key}`;
    if (!endpoints.has(id)) endpoints.set(id, { id, uri: key });
    return id;
  };
  const produced = new Set<string>();
  for (const route of routes) {
    const seen = new Set<string>();
    for (const uri of route.steps.flatMap(urisOf)) {
      const key = endpointKey(uri);
      if (seen.has(key)) continue;
      seen.add(key);
      if (key.startsWith("llm:")) {
        const names = llmTools(uri);
        for (const tool of tools) {
          const target = routeIdOf(tool);
          if (target !== undefined && (names.includes("*") || names.includes(tool.name))) {
            edges.push({
              from: `route:${route.id}`,
              to: `route:${target}`,
              label: `tool ${tool.name}`,
              kind: "tool",
            });
          }
        }
        continue;
      }
      produced.add(key);
      const consumer = consumers.get(key);
      const to = consumer === undefined ? endpointNode(uri) : `route:${consumer}`;
      edges.push({ from: `route:${route.id}`, to, label: key, kind: "message" });
    }
  }
  for (const route of routes) {
    const key = endpointKey(route.from);
    if (produced.has(key) || key.startsWith("direct:")) continue;
    edges.push({ from: endpointNode(route.from), to: `route:${route.id}`, label: key, kind: "message" });
  }
  return { routes, endpoints: [...endpoints.values()], edges, tools: looseTools };
}
