import { defineBudgetTask, ExpressionError, evaluateXPath } from "@routekit/core";
import { checkUntrustedXPath, parseXml, refuseDoctype } from "@routekit/core/internal";
import { checkDocumentSize } from "../document-query/document-size.js";
import { runQueryJob } from "../document-query/run-query-job.js";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { parseToolInput, requireString, startsAsJsonObject } from "../tool-input.js";
import { resolveXPathOptions, type XPathOptions } from "./xpath-options.js";
import type { XPathJob } from "./xpath-task.js";

/** JSON Schema of the xpath tool input. */
export const XPATH_INPUT_SCHEMA = {
  type: "object",
  properties: {
    xml: { type: "string", description: "The XML document to query, as text (no DOCTYPE)." },
    xpath: {
      type: "string",
      description:
        "XPath 1.0 expression, e.g. //book[1]/title, string(//title) or count(//book). " +
        "XPath 1.0 functions plus upper-case, lower-case and ends-with; no let, for, ranges or inline functions.",
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
const XPATH_TASK = defineBudgetTask<XPathJob, string | null>(
  new URL("./xpath-task.js", import.meta.url),
  "xpathJob",
);

/** An xpath query: the XML text and the expression. */
export interface XPathQuery {
  xml: string;
  xpath: string;
}

/**
 * Reads an xpath query from a message body: the tool input `{xml, xpath}` as an object or JSON
 * text. With a fixed `options.xpath` the body may also be the XML text itself (XML never starts
 * with `{`, so an object and XML text cannot be confused).
 */
export function readXPathQuery(body: unknown, options?: XPathOptions): XPathQuery {
  const resolved = resolveXPathOptions(options);
  const value = body instanceof Uint8Array ? textDecoder.decode(body) : body;
  if (resolved.xpath !== undefined && typeof value === "string" && !startsAsJsonObject(value)) {
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

/** Parses the XML and evaluates an expression; errors name the key they come from. */
export function queryXml(xml: string, xpath: string, untrusted: boolean): string | null {
  if (untrusted) checkUntrustedExpression(xpath);
  let document: ReturnType<typeof parseXml>;
  try {
    document = parseXml(xml);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'xml': ${reason}`, "xml");
  }
  try {
    return evaluateXPath(document, xpath);
  } catch (error) {
    const reason = reasonOf(error);
    if (error instanceof ExpressionError) {
      throw new ToolInputError(TOOL, `${TOOL}: key 'xpath' is invalid: ${reason}`, "xpath");
    }
    throw new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: key 'xpath' failed: ${reason}`, { cause: error });
  }
}

/** Checks an expression against the untrusted dialect; a refusal is an input error naming the key. */
export function checkUntrustedExpression(xpath: string): void {
  try {
    checkUntrustedXPath(xpath);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'xpath' is refused: ${reason}`, "xpath");
  }
}

/**
 * Runs xpath on a message body (see `readXPathQuery`) on the calling thread, with XPath 1.0
 * results: the string value of the first node of a node-set, numbers and booleans as XPath 1.0
 * writes them, `null` when nothing matches. A `<!DOCTYPE` is refused; no entity or external
 * resource is ever loaded. For expressions the route author wrote (a fixed `options.xpath`); an
 * expression from a model or a message goes through `runXPathBounded`, as the `.xpath()` step does.
 */
export function runXPath(body: unknown, options?: XPathOptions): string | null {
  const { xml, xpath } = readXPathQuery(body, options);
  checkDocumentSize(xml, resolveXPathOptions(options).maxDocumentBytes, TOOL, "xml");
  return queryXml(xml, xpath, false);
}

/**
 * Runs xpath on a message body under the tool's budget: the expression must be in the untrusted
 * dialect (see `checkUntrustedXPath`: XPath 1.0 without 2.0/3.1 constructs) and runs, with the
 * XML parsing, in a worker thread bounded by `timeoutMs` (from submission), the budget's memory
 * limit and `maxOutputBytes`.
 */
export function runXPathBounded(
  body: unknown,
  options?: XPathOptions,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const { xml, xpath } = readXPathQuery(body, options);
    checkUntrustedExpression(xpath);
    return runInBudget(xml, xpath, false, options, signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * What the step runs with a fixed expression (the route author's): on the calling thread for a
 * document up to `inlineDocumentChars`, in a worker of the budget for a larger one (the
 * expression is trusted, the document is not: a large hostile document can make a costly
 * expression run for seconds).
 */
export function runFixedXPath(
  body: unknown,
  options: XPathOptions,
  signal?: AbortSignal,
): string | null | Promise<string | null> {
  const { xml, xpath } = readXPathQuery(body, options);
  const resolved = resolveXPathOptions(options);
  if (xml.length > resolved.inlineDocumentChars) return runInBudget(xml, xpath, true, options, signal);
  checkDocumentSize(xml, resolved.maxDocumentBytes, TOOL, "xml");
  return queryXml(xml, xpath, false);
}

function runInBudget(
  xml: string,
  xpath: string,
  trusted: boolean,
  options: XPathOptions | undefined,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  const resolved = resolveXPathOptions(options);
  checkDocumentSize(xml, resolved.maxDocumentBytes, TOOL, "xml");
  try {
    refuseDoctype(xml);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'xml': ${reason}`, "xml");
  }
  return runQueryJob(TOOL, XPATH_TASK, { xml, xpath, trusted }, resolved, signal);
}
