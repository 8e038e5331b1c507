import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import { type JsonPathOptions, resolveJsonPathOptions } from "../json-path/json-path-options.js";
import { JSON_PATH_DOCUMENT_INPUT_SCHEMA, JSON_PATH_INPUT_SCHEMA } from "../json-path/run-json-path.js";
import "../steps/json-path-step.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of JsonPathTool: the json_path step's options plus the wrapper's. */
export interface JsonPathToolOptions extends JsonPathOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "Query a JSON document with JSONPath; returns the match as JSON, an array for multi-match paths, or null.";

/**
 * json_path as a self-contained route: `from(endpointUri).asLlmTool("json_path", ...).jsonPath(options)`.
 * With a fixed `path` the tool's input is the document itself.
 */
export class JsonPathTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: JsonPathOptions };

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(options: JsonPathToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveJsonPathOptions(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    const input = step.path === undefined ? JSON_PATH_INPUT_SCHEMA : JSON_PATH_DOCUMENT_INPUT_SCHEMA;
    this.from(wrapper.endpointUri ?? "direct:llm.json_path")
      .asLlmTool("json_path", {
        description: wrapper.description ?? DESCRIPTION,
        input,
        validate: "model-only",
      })
      .jsonPath(step);
  }
}
