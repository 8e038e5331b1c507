import type { RouteContext } from "@routekit/core";
import type { RouteDescription, StepDescription } from "@routekit/core/internal";
import type { ToolRegistry } from "@routekit/llm/tool";

/** A tool the llm step can call, with the schema the model sees. */
export interface GraphTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

/** A route as the graph draws it: `context.describe()`'s route, its tool picked out. */
export interface GraphRoute {
  readonly id: string;
  readonly from: string;
  readonly description: string | null;
  readonly state: RouteDescription["state"];
  readonly steps: readonly StepDescription[];
  /** Set when the route is an LLM tool (`asLlmTool`). */
  readonly tool: GraphTool | undefined;
}

/** An endpoint no route of this context consumes from (a timer, http:, mock:, ...). */
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

/**
 * The context's tools that no route backs, when @routekit/llm's plugin is installed: its registry
 * (`context.tools`, typed by @routekit/llm, imported type-only: the console does not load it) is
 * absent otherwise.
 */
function looseTools(context: RouteContext): GraphTool[] {
  const registry: ToolRegistry | undefined = (context as Partial<Pick<RouteContext, "tools">>).tools;
  try {
    const tools = registry === undefined ? [] : registry.list();
    return tools
      .filter((tool) => tool.source !== "route")
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  } catch {
    return [];
  }
}

/** The `llmTool` aspect as `describe()` gives it (name, description, schema), if the route has one. */
function toolOf(route: RouteDescription): GraphTool | undefined {
  const aspect = route.aspects.llmTool;
  if (typeof aspect !== "object" || aspect === null || Array.isArray(aspect)) return undefined;
  if (typeof aspect.name !== "string") return undefined;
  return {
    name: aspect.name,
    description: typeof aspect.description === "string" ? aspect.description : "",
    inputSchema: aspect.inputSchema ?? null,
  };
}

/** `direct:a?x=1` and `direct:a` are one endpoint. */
function endpointKey(uri: string): string {
  const question = uri.indexOf("?");
  return question === -1 ? uri : uri.slice(0, question);
}

/** The tool names an `llm:` URI names (`tools=a,b`; `*` for every tool). */
function llmTools(uri: string): string[] {
  const match = /[?&]tools=([^&]*)/.exec(uri);
  if (match === null) return [];
  try {
    return decodeURIComponent(match[1]!)
      .split(",")
      .filter((name) => name !== "");
  } catch {
    return [];
  }
}

/**
 * The route graph from `context.describe()`: its routes and the edges between them, plus the
 * endpoints no route consumes (drawn as their own nodes) and, for each llm step, an edge to every
 * tool route it may call.
 */
export function buildGraph(context: RouteContext): ConsoleGraph {
  const description = context.describe();
  const routes: GraphRoute[] = description.routes.map((route) => ({
    id: route.id,
    from: route.from,
    description: route.description,
    state: route.state,
    steps: route.steps,
    tool: toolOf(route),
  }));
  const consumed = new Set(description.routes.map((route) => endpointKey(route.from)));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const addEdge = (edge: GraphEdge): void => {
    const key = `${edge.from}\n${edge.to}\n${edge.label}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(edge);
  };
  for (const edge of description.edges) {
    addEdge({
      from: `route:${edge.from}`,
      to: `route:${edge.to}`,
      label: endpointKey(edge.uri),
      kind: "message",
    });
  }
  const endpoints = new Map<string, GraphEndpoint>();
  const endpointNode = (uri: string): string => {
    const key = endpointKey(uri);
    const id = `endpoint:${key}`;
    if (!endpoints.has(id)) endpoints.set(id, { id, uri: key });
    return id;
  };
  const produced = new Set<string>();
  for (const route of description.routes) {
    for (const use of route.endpoints) {
      if (use.direction !== "out" || use.dynamic) continue;
      const key = endpointKey(use.uri);
      if (key.startsWith("llm:")) {
        const names = llmTools(use.uri);
        for (const target of routes) {
          if (target.tool !== undefined && (names.includes("*") || names.includes(target.tool.name))) {
            addEdge({
              from: `route:${route.id}`,
              to: `route:${target.id}`,
              label: `tool ${target.tool.name}`,
              kind: "tool",
            });
          }
        }
        continue;
      }
      produced.add(key);
      if (!consumed.has(key)) {
        addEdge({ from: `route:${route.id}`, to: endpointNode(use.uri), label: key, kind: "message" });
      }
    }
  }
  for (const route of description.routes) {
    const key = endpointKey(route.from);
    if (produced.has(key) || key.startsWith("direct:")) continue;
    addEdge({ from: endpointNode(route.from), to: `route:${route.id}`, label: key, kind: "message" });
  }
  return { routes, endpoints: [...endpoints.values()], edges, tools: looseTools(context) };
}
