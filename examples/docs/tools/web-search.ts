// The code of docs/tools/web-search.md: type-checked, not run (it calls Tavily with a key).
import { createContext, RouteBuilder } from "@routekit/core";
import { TavilyWebSearchTool } from "@routekit/llm-tools";

export class ResearchRoutes extends RouteBuilder {
  configure() {
    // #region step
    this.from("direct:research")
      .tavilyWebSearch({ includeAnswer: false })
      .jsonPath({ path: "$.results[*].url" })
      .to("mock:urls");
    // #endregion step
  }
}

/** Mounts the wrapper and asks it one question. */
export async function main(): Promise<void> {
  const context = createContext();
  // #region wrapper
  await context.addRoutes(new TavilyWebSearchTool()); // key from TAVILY_API_KEY
  await context.start();
  await context.request("direct:llm.web_search", { query: "routekit", max_results: 3 });
  // #endregion wrapper
  await context.stop();
}
