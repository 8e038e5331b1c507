import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import "../steps/web-search-step.js";
import { WEB_SEARCH_INPUT_SCHEMA } from "../web-search/run-web-search.js";
import {
  resolveTavilyKey,
  resolveTavilyOptions,
  type TavilyWebSearchOptions,
} from "../web-search/tavily-options.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of TavilyWebSearchTool: the web_search step's options plus the wrapper's. */
export interface TavilyWebSearchToolOptions extends TavilyWebSearchOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "Search the web (Tavily); returns a short answer when available and the top results with title, url and content.";

/**
 * web_search as a self-contained route:
 * `from(endpointUri).asLlmTool("web_search", ...).tavilyWebSearch(options)`.
 * Throws when constructed without an API key (option `apiKey` or TAVILY_API_KEY).
 */
export class TavilyWebSearchTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: TavilyWebSearchOptions };

  /** Checks the options and the key now, so a missing key fails here rather than on the first search. */
  constructor(options: TavilyWebSearchToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveTavilyOptions(this.#options.step);
    resolveTavilyKey(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    this.from(wrapper.endpointUri ?? "direct:llm.web_search")
      .asLlmTool("web_search", {
        description: wrapper.description ?? DESCRIPTION,
        input: WEB_SEARCH_INPUT_SCHEMA,
        // The step checks its input for every caller, naming the tool and the key.
        validate: "model-only",
      })
      .tavilyWebSearch(step);
  }
}
