import { type HttpFetchOptions, resolveHttpFetchOptions } from "../http-fetch/http-fetch-options.js";
import { HTTP_FETCH_INPUT_SCHEMA } from "../http-fetch/run-http-fetch.js";
import "../steps/http-fetch-step.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of HttpFetchTool: the http_fetch step's options plus the wrapper's. */
export interface HttpFetchToolOptions extends HttpFetchOptions, ToolWrapperOptions {}

const SPEC: ToolWrapperSpec<HttpFetchOptions> = {
  toolName: "http_fetch",
  description:
    "HTTP GET an absolute http(s) URL and return the response body as text (truncated past a size limit).",
  check: (options) => resolveHttpFetchOptions(options),
  input: () => HTTP_FETCH_INPUT_SCHEMA,
  addStep: (route, options) => route.httpFetch(options),
};

/** http_fetch as a self-contained route: `from(endpointUri).asLlmTool("http_fetch", ...).httpFetch(options)`. */
export class HttpFetchTool extends toolWrapper(SPEC) {}
