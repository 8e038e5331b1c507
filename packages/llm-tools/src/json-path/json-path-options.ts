import { checkJsonPath } from "@routekit/core/internal";
import {
  DOCUMENT_QUERY_DEFAULTS,
  type DocumentQueryLimits,
  documentQueryResolver,
  type ResolvedDocumentQueryLimits,
} from "../document-query/document-query-options.js";

/** Options of json_path. */
export interface JsonPathOptions extends DocumentQueryLimits {
  /**
   * A fixed JSONPath. When set, the body is the document itself (an object, an array or JSON
   * text) and no `{json, path}` input is read: the enrichment form `jsonPath({ path })`.
   */
  path?: string;
}

/** JsonPathOptions checked, with defaults applied. */
export interface ResolvedJsonPathOptions extends ResolvedDocumentQueryLimits {
  readonly path: string | undefined;
}

/** Default limits of json_path. */
export const JSON_PATH_DEFAULTS = DOCUMENT_QUERY_DEFAULTS;

/**
 * Checks json_path options once per options object; a fixed `path` is checked for syntax here,
 * so a bad one fails when the route is added.
 */
export const resolveJsonPathOptions: (options?: JsonPathOptions) => ResolvedJsonPathOptions =
  documentQueryResolver({
    toolName: "json_path",
    queryKey: "path",
    expected: "a non-empty JSONPath text",
    checkSyntax: checkJsonPath,
  });
