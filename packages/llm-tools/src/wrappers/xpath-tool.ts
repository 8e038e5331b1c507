import "../steps/xpath-step.js";
import { XPATH_DOCUMENT_INPUT_SCHEMA, XPATH_INPUT_SCHEMA } from "../xpath/run-xpath.js";
import { resolveXPathOptions, type XPathOptions } from "../xpath/xpath-options.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of XPathTool: the xpath step's options plus the wrapper's. */
export interface XPathToolOptions extends XPathOptions, ToolWrapperOptions {}

const SPEC: ToolWrapperSpec<XPathOptions> = {
  toolName: "xpath",
  description: "Query an XML document with an XPath 1.0 expression; returns the result as a string, or null.",
  check: (options) => resolveXPathOptions(options),
  input: (options) => (options.xpath === undefined ? XPATH_INPUT_SCHEMA : XPATH_DOCUMENT_INPUT_SCHEMA),
  addStep: (route, options) => route.xpath(options),
};

/**
 * xpath as a self-contained route: `from(endpointUri).asLlmTool("xpath", ...).xpath(options)`.
 * With a fixed `xpath` the tool's input is only `{xml}`.
 */
export class XPathTool extends toolWrapper(SPEC) {}
