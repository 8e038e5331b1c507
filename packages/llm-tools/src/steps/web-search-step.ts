import { defineStep, type Exchange } from "@routekit/core";
import { runWebSearch } from "../web-search/run-web-search.js";
import {
  resolveTavilyKey,
  resolveTavilyOptions,
  type TavilyWebSearchOptions,
} from "../web-search/tavily-options.js";

/**
 * The `.tavilyWebSearch(options)` step: the body is `{query, max_results}` (object or JSON text)
 * or the query as plain text; the body becomes `{"answer"?, "results": [...]}` as JSON text and
 * the header `llm.web_search.results` the number of hits. The options and the API key (option or
 * TAVILY_API_KEY) are checked when the route is added.
 */
export const tavilyWebSearch = defineStep("tavilyWebSearch", (options: TavilyWebSearchOptions = {}) => {
  resolveTavilyOptions(options);
  resolveTavilyKey(options);
  return async (exchange: Exchange): Promise<void> => {
    const result = await runWebSearch(exchange.body, options, exchange.signal);
    exchange.body = result.text;
    exchange.headers["llm.web_search.results"] = result.headers["llm.web_search.results"];
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** web_search (Tavily) as a step: the body becomes the search result as JSON text. */
    tavilyWebSearch(options?: TavilyWebSearchOptions): RouteDsl<string>;
  }
}
