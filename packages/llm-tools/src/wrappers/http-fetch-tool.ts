import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import { type HttpFetchOptions, resolveHttpFetchOptions } from "../http-fetch/http-fetch-options.js";
import { HTTP_FETCH_INPUT_SCHEMA } from "../http-fetch/run-http-fetch.js";
import "../steps/http-fetch-step.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of HttpFetchTool: the http_fetch step's options plus the wrapper's. */
export interface HttpFetchToolOptions extends HttpFetchOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "HTTP GET an absolute http(s) URL and return the response body as text (truncated past a size limit).";

/** http_fetch as a self-contained route: `from(endpointUri).asLlmTool("http_fetch", ...).httpFetch(options)`. */
export class HttpFetchTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: HttpFetchOptions };

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(options: HttpFetchToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveHttpFetchOptions(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    this.from(wrapper.endpointUri ?? "direct:llm.http_fetch")
      .asLlmTool("http_fetch", {
        description: wrapper.description ?? DESCRIPTION,
        input: HTTP_FETCH_INPUT_SCHEMA,
        // The step checks its input for every caller, naming the tool and the key.
        validate: "model-only",
      })
      .httpFetch(step);
  }
}
