// A routes module for `routekit-mcp serve`: the six built-in tools and one business route, served
// to any MCP client (Claude Desktop, an IDE, an agent in another language) over stdio or HTTP.
import { createContext, RouteBuilder, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import {
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  TavilyWebSearchTool,
  XPathTool,
} from "@routekit/llm-tools";
import { reportProgress } from "@routekit/mcp";

const orders: Record<string, { status: string; totalUsd: number }> = {
  "A-17": { status: "shipped", totalUsd: 120 },
  "B-4": { status: "packing", totalUsd: 42.5 },
};

// #region business-route
/** One business route as a tool: the body is the arguments object, the reply the tool's output. */
class OrderRoutes extends RouteBuilder {
  configure() {
    this.from("direct:tool.order_status")
      .routeId("order-status-tool")
      .asLlmTool("order_status", {
        description: "Look up an order by id; returns its status and total in USD.",
        input: {
          type: "object",
          properties: { orderId: { type: "string", description: "the order id, like A-17" } },
          required: ["orderId"],
          additionalProperties: false,
        },
      })
      .process((exchange) => {
        // An MCP client that asked for progress receives it; elsewhere this does nothing.
        reportProgress(exchange, 1, 1, `looking up ${exchange.body.orderId}`);
      })
      .transform(({ body }) => orders[body.orderId] ?? { error: `no order '${body.orderId}'` });
  }
}
// #endregion

// #region routes-module
/** `routekit-mcp serve` calls this for its context: the six tools, then the business route. */
export async function context(): Promise<RouteContext> {
  const routes = createContext({ name: "mcp-server-example", logLevel: "warn" });
  for (const builder of [
    new HttpFetchTool({ hostAllowlist: ["api.github.com"] }),
    new JsonPathTool(),
    new XPathTool(),
    new RegexExtractTool(),
    new MathEvalTool(),
    // Tavily needs a key at call time only: without TAVILY_API_KEY a call is an error result.
    new TavilyWebSearchTool({ apiKey: process.env.TAVILY_API_KEY ?? "unset" }),
    new OrderRoutes(),
  ]) {
    await routes.addRoutes(builder);
  }
  return routes;
}

/** What clients see: exactly these tools (nothing is exposed by accident). */
export const mcp = {
  tools: ["http_fetch", "json_path", "xpath", "regex_extract", "math_eval", "web_search", "order_status"],
  toolTimeoutMs: 20_000,
};
// #endregion
