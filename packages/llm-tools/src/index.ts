/**
 * @routekit/llm-tools: the built-in tools, each shipped twice — a DSL step (importing this package
 * adds `.httpFetch()`, `.jsonPath()`, `.xpath()`, `.regexExtract()`, `.mathEval()` and
 * `.tavilyWebSearch()` to every route) and a RouteBuilder wrapper mounting it as an LLM tool —
 * plus `httpTool` (a REST endpoint as a native tool) and the input helpers custom tools share.
 */

// Errors and tool input parsing
export { LlmToolsError, type LlmToolsErrorCode, ToolInputError } from "./errors.js";
// http_fetch
export {
  type AddressVerdict,
  classifyAddress,
  createGuardedDispatcher,
  fetchText,
  type GuardedDispatcherOptions,
  HTTP_FETCH_INPUT_SCHEMA,
  HttpFetchError,
  type HttpFetchFailure,
  type HttpFetchHeaders,
  type HttpFetchOptions,
  type HttpFetchResult,
  type HttpFetchStepResult,
  runHttpFetch,
} from "./http-fetch/index.js";
// httpTool
export {
  type HttpTool,
  type HttpToolBodyMode,
  type HttpToolDescription,
  type HttpToolOptions,
  type HttpToolResultMode,
  httpTool,
} from "./http-tool/index.js";
// json_path
export {
  JSON_PATH_DOCUMENT_INPUT_SCHEMA,
  JSON_PATH_INPUT_SCHEMA,
  type JsonPathOptions,
  runJsonPath,
  runJsonPathBounded,
} from "./json-path/index.js";
// math_eval
export {
  MATH_EVAL_INPUT_SCHEMA,
  type MathEvalOptions,
  runMathEval,
  runMathEvalBounded,
} from "./math-eval/index.js";
// regex_extract
export {
  REGEX_EXTRACT_INPUT_SCHEMA,
  type RegexExtractInput,
  type RegexExtractOptions,
  runRegexExtract,
  shutdownRegexWorkers,
} from "./regex-extract/index.js";
// DSL steps
export { httpFetch } from "./steps/http-fetch-step.js";
export { type JsonPathStepOptions, jsonPath } from "./steps/json-path-step.js";
export { type MathEvalStepOptions, mathEval } from "./steps/math-eval-step.js";
export { type RegexExtractStepOptions, regexExtract } from "./steps/regex-extract-step.js";
export type { StepOutput, StepOutputOption } from "./steps/step-output.js";
export { tavilyWebSearch } from "./steps/web-search-step.js";
export { xpath } from "./steps/xpath-step.js";
export {
  optionalBoolean,
  optionalNumber,
  optionalString,
  parseToolInput,
  requireString,
  type ToolInput,
} from "./tool-input.js";
// web_search
export {
  runWebSearch,
  type TavilyWebSearchOptions,
  tavilySearch,
  WEB_SEARCH_INPUT_SCHEMA,
  type WebSearchHit,
  type WebSearchInput,
  type WebSearchResult,
  type WebSearchStepResult,
} from "./web-search/index.js";
// RouteBuilder wrappers
export { HttpFetchTool, type HttpFetchToolOptions } from "./wrappers/http-fetch-tool.js";
export { JsonPathTool, type JsonPathToolOptions } from "./wrappers/json-path-tool.js";
export { MathEvalTool, type MathEvalToolOptions } from "./wrappers/math-eval-tool.js";
export { omitInputKeys } from "./wrappers/omit-input-keys.js";
export { RegexExtractTool, type RegexExtractToolOptions } from "./wrappers/regex-extract-tool.js";
export { TavilyWebSearchTool, type TavilyWebSearchToolOptions } from "./wrappers/tavily-web-search-tool.js";
export type { ToolWrapperOptions } from "./wrappers/tool-wrapper-options.js";
export { XPathTool, type XPathToolOptions } from "./wrappers/xpath-tool.js";
// xpath
export { runXPath, runXPathBounded, XPATH_INPUT_SCHEMA, type XPathOptions } from "./xpath/index.js";
