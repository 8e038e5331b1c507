import { checkXPathSyntax } from "@routekit/core/internal";
import {
  DOCUMENT_QUERY_DEFAULTS,
  type DocumentQueryLimits,
  documentQueryResolver,
  type ResolvedDocumentQueryLimits,
} from "../document-query/document-query-options.js";

/** Options of xpath. */
export interface XPathOptions extends DocumentQueryLimits {
  /**
   * A fixed XPath expression. When set, the body supplies only the document: XML text, or an
   * `{xml}` object: the enrichment form `xpath({ xpath: "string(//title)" })`.
   */
  xpath?: string;
}

/** XPathOptions checked, with defaults applied. */
export interface ResolvedXPathOptions extends ResolvedDocumentQueryLimits {
  readonly xpath: string | undefined;
}

/** Default limits of xpath. */
export const XPATH_DEFAULTS = DOCUMENT_QUERY_DEFAULTS;

/**
 * Checks xpath options once per options object; a fixed expression is checked for syntax here,
 * so a bad one fails when the route is added.
 */
export const resolveXPathOptions: (options?: XPathOptions) => ResolvedXPathOptions = documentQueryResolver({
  toolName: "xpath",
  queryKey: "xpath",
  expected: "a non-empty XPath expression",
  checkSyntax: checkXPathSyntax,
});
