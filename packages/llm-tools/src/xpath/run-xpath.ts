import { ExpressionError, evaluateXPath, parseXml } from "@routekit/core";
import { LlmToolsError, ToolInputError } from "../errors.js";
import { checkDocumentSize } from "../json-path/document-size.js";
import { parseToolInput, requireString } from "../tool-input.js";
import { resolveXPathOptions, type XPathOptions } from "./xpath-options.js";

/** JSON Schema of the xpath tool input. */
export const XPATH_INPUT_SCHEMA = {
  type: "object",
  properties: {
    xml: { type: "string", description: "The XML document to query, as text (no DOCTYPE)." },
    xpath: {
      type: "string",
      description: "XPath 1.0 expression, e.g. //book[1]/title, string(//title) or count(//book).",
    },
  },
  required: ["xml", "xpath"],
  additionalProperties: false,
} as const;

/** JSON Schema of the xpath tool input when the expression is fixed by the options. */
export const XPATH_DOCUMENT_INPUT_SCHEMA = {
  type: "object",
  properties: { xml: XPATH_INPUT_SCHEMA.properties.xml },
  required: ["xml"],
  additionalProperties: false,
} as const;

const TOOL = "xpath";
const textDecoder = new TextDecoder();

/** An xpath query: the XML text and the expression. */
export interface XPathQuery {
  xml: string;
  xpath: string;
}

function looksLikeJsonObject(text: string): boolean {
  return text.trimStart().startsWith("{");
}

/**
 * Reads an xpath query from a message body: the tool input `{xml, xpath}` as an object or JSON
 * text. With a fixed `options.xpath` the body may also be the XML text itself (XML never starts
 * with `{`, so an object and XML text cannot be confused).
 */
export function readXPathQuery(body: unknown, options?: XPathOptions): XPathQuery {
  const resolved = resolveXPathOptions(options);
  const value = body instanceof Uint8Array ? textDecoder.decode(body) : body;
  if (resolved.xpath !== undefined && typeof value === "string" && !looksLikeJsonObject(value)) {
    if (value.trim() === "")
      throw new ToolInputError(TOOL, `${TOOL}: input is empty (expected XML text)`, "xml");
    return { xml: value, xpath: resolved.xpath };
  }
  const input = parseToolInput(value, TOOL);
  const xml = requireString(input, "xml", TOOL);
  const xpath = resolved.xpath ?? requireString(input, "xpath", TOOL);
  if (xml.trim() === "")
    throw new ToolInputError(TOOL, `${TOOL}: key 'xml' is empty (expected XML text)`, "xml");
  return { xml, xpath };
}

/**
 * Runs xpath on a message body (see `readXPathQuery`) with XPath 1.0 results: the string value
 * of the first node of a node-set, numbers and booleans as XPath 1.0 writes them, `null` when
 * nothing matches. A `<!DOCTYPE` is refused; no entity or external resource is ever loaded.
 */
export function runXPath(body: unknown, options?: XPathOptions): string | null {
  const { xml, xpath } = readXPathQuery(body, options);
  checkDocumentSize(xml, resolveXPathOptions(options).maxDocumentBytes, TOOL, "xml");
  let document: ReturnType<typeof parseXml>;
  try {
    document = parseXml(xml);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'xml': ${reason}`, "xml");
  }
  try {
    return evaluateXPath(document, xpath);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof ExpressionError) {
      throw new ToolInputError(TOOL, `${TOOL}: key 'xpath' is invalid: ${reason}`, "xpath");
    }
    throw new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: key 'xpath' failed: ${reason}`, { cause: error });
  }
}
