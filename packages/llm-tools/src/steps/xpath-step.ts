import { defineStep, type Exchange } from "@routekit/core";
import { runFixedXPath, runXPathBounded } from "../xpath/run-xpath.js";
import { resolveXPathOptions, type XPathOptions } from "../xpath/xpath-options.js";

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
    return (exchange: Exchange): void | Promise<void> => {
      const result = runFixedXPath(exchange.body, options, exchange.signal);
      if (!(result instanceof Promise)) {
        exchange.body = result;
        return;
      }
      return result.then((value) => {
        exchange.body = value;
      });
    };
  }
  return async (exchange: Exchange): Promise<void> => {
    exchange.body = await runXPathBounded(exchange.body, options, exchange.signal);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** xpath as a step: the XPath 1.0 result as a string, or `null` when nothing matches. */
    xpath(options?: XPathOptions): RouteDsl<string | null>;
  }
}
