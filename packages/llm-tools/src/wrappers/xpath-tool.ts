import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import "../steps/xpath-step.js";
import { XPATH_DOCUMENT_INPUT_SCHEMA, XPATH_INPUT_SCHEMA } from "../xpath/run-xpath.js";
import { resolveXPathOptions, type XPathOptions } from "../xpath/xpath-options.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of XPathTool: the xpath step's options plus the wrapper's. */
export interface XPathToolOptions extends XPathOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "Query an XML document with an XPath 1.0 expression; returns the result as a string, or null.";

/**
 * xpath as a self-contained route: `from(endpointUri).asLlmTool("xpath", ...).xpath(options)`.
 * With a fixed `xpath` the tool's input is only `{xml}`.
 */
export class XPathTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: XPathOptions };

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(options: XPathToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveXPathOptions(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    const input = step.xpath === undefined ? XPATH_INPUT_SCHEMA : XPATH_DOCUMENT_INPUT_SCHEMA;
    this.from(wrapper.endpointUri ?? "direct:llm.xpath")
      .asLlmTool("xpath", { description: wrapper.description ?? DESCRIPTION, input, validate: "model-only" })
      .xpath(step);
  }
}
