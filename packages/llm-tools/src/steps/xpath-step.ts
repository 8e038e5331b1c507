import { defineStep, type Exchange } from "@routekit/core";
import { runFixedXPath, runXPathBounded } from "../xpath/run-xpath.js";
import { resolveXPathOptions, type XPathOptions } from "../xpath/xpath-options.js";
import { writeBody } from "./step-output.js";

/** The XPath result is the body as it is: a string, or `null`. */
const asBody = (result: string | null): unknown => result;

/**
 * The `.xpath(options)` step: the body is `{xml, xpath}` (object or JSON text), or, with a fixed
 * `options.xpath`, the XML text itself; the XPath 1.0 result becomes the body as a string, or
 * `null` when nothing matches (an LLM reads that as the text `null`). A fixed expression is the
 * route author's and runs on the route's thread over documents up to `inlineDocumentChars`, in the
 * budget over larger ones; one from the body is untrusted and always runs under the budget (see
 * `runXPathBounded`). Options are checked when the route is added.
 */
export const xpath = defineStep("xpath", (options: XPathOptions = {}) => {
  const resolved = resolveXPathOptions(options);
  if (resolved.xpath !== undefined) {
    // Synchronous when the document is small enough to query here: no promise on the fast path.
    return (exchange: Exchange): void | Promise<void> =>
      writeBody(exchange, runFixedXPath(exchange.body, options, exchange.signal), asBody);
  }
  return (exchange: Exchange): Promise<void> =>
    writeBody(exchange, runXPathBounded(exchange.body, options, exchange.signal), asBody) as Promise<void>;
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** xpath as a step: the XPath 1.0 result as a string, or `null` when nothing matches. */
    xpath(options?: XPathOptions): RouteDsl<string | null>;
  }
}
