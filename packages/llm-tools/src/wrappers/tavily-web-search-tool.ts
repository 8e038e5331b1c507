import "../steps/web-search-step.js";
import { WEB_SEARCH_INPUT_SCHEMA } from "../web-search/run-web-search.js";
import {
  resolveTavilyKey,
  resolveTavilyOptions,
  type TavilyWebSearchOptions,
} from "../web-search/tavily-options.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of TavilyWebSearchTool: the web_search step's options plus the wrapper's. */
export interface TavilyWebSearchToolOptions extends TavilyWebSearchOptions, ToolWrapperOptions {}

const SPEC: ToolWrapperSpec<TavilyWebSearchOptions> = {
  toolName: "web_search",
  description:
    "Search the web (Tavily); returns a short answer when available and the top results with title, url and content.",
  // The key too, so a missing key fails when the wrapper is made rather than on the first search.
  check: (options) => {
    resolveTavilyOptions(options);
    resolveTavilyKey(options);
  },
  input: () => WEB_SEARCH_INPUT_SCHEMA,
  addStep: (route, options) => route.tavilyWebSearch(options),
};

/**
 * web_search as a self-contained route:
 * `from(endpointUri).asLlmTool("web_search", ...).tavilyWebSearch(options)`.
 * Throws when constructed without an API key (option `apiKey` or TAVILY_API_KEY).
 */
export class TavilyWebSearchTool extends toolWrapper(SPEC) {}
