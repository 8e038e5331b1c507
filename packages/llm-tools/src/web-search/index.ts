export {
  readWebSearchInput,
  runWebSearch,
  WEB_SEARCH_INPUT_SCHEMA,
  type WebSearchStepResult,
} from "./run-web-search.js";
export {
  type ResolvedTavilyOptions,
  resolveTavilyKey,
  resolveTavilyOptions,
  TAVILY_BASE_URL,
  type TavilyWebSearchOptions,
} from "./tavily-options.js";
export {
  tavilySearch,
  type WebSearchHit,
  type WebSearchInput,
  type WebSearchResult,
} from "./tavily-search.js";
