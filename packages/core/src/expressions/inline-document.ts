import { RoutekitError } from "../errors/errors.js";
import { checkJsonDepth } from "../support/check-json-depth.js";
import { describeValue } from "../support/describe-value.js";
import { isXmlDocument } from "./parse-xml.js";
import { xmlDeeperThan } from "./xml-shape.js";

const textDecoder = new TextDecoder();

/**
 * Bounds on a message body that a route's own JSONPath or XPath queries on the route's thread.
 * The query is the route author's; the body is whatever arrived, so its size and nesting are bounded
 * before parsing: XPath costs about the number of elements times their depth (16 KB of XML nested
 * 511 deep took 0.9 s for `count(//a)`), and `$..*` about the number of values times theirs.
 */
export interface InlineDocumentLimits {
  /** Longest document text (or, for a parsed JSON value, its estimated text) in characters. Default 16384. */
  readonly maxDocumentChars?: number;
  /** Deepest nesting of elements (XML) or arrays and objects (JSON). Default 64. */
  readonly maxDepth?: number;
}

/** The defaults of `InlineDocumentLimits`. */
export const INLINE_DOCUMENT_DEFAULTS = { maxDocumentChars: 16_384, maxDepth: 64 } as const;

/** Where a refusal happened and what to suggest: `XPath "//a"` and the helper that takes the options. */
export interface InlineQuery {
  readonly label: string;
  readonly helper: "xpath" | "jsonpath";
}

/** Checks limits given to a helper once, when the expression is built. */
export function resolveInlineLimits(
  limits: InlineDocumentLimits | undefined,
  where: string,
): Required<InlineDocumentLimits> {
  const resolved = { ...INLINE_DOCUMENT_DEFAULTS, ...limits };
  for (const key of ["maxDocumentChars", "maxDepth"] as const) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < 1) {
      throw new RoutekitError(
        "EXPRESSION_INVALID",
        `${where}: option '${key}' must be a positive integer (found ${describeValue(value)})`,
      );
    }
  }
  return resolved;
}

/**
 * Refuses a document too large or too deep to query on the route's thread, before it is parsed:
 * text by its length and a linear scan of its nesting, a parsed JSON value by a walk that stops at
 * the limit. A parsed DOM document is the route's own work and passes.
 */
export function checkInlineDocument(
  document: unknown,
  kind: "xml" | "json",
  query: InlineQuery,
  limits: Required<InlineDocumentLimits>,
): void {
  if (document === null || document === undefined || isXmlDocument(document)) return;
  if (typeof document === "string" || document instanceof Uint8Array) {
    const size = document.length;
    if (size > limits.maxDocumentChars) throw tooLarge(query, `${size} characters`, limits);
    const text = typeof document === "string" ? document : textDecoder.decode(document);
    const deeper =
      kind === "xml"
        ? xmlDeeperThan(text, limits.maxDepth)
        : checkJsonDepth(text, limits.maxDepth) !== undefined;
    if (deeper) throw tooDeep(query, limits);
    return;
  }
  if (kind === "json" && typeof document === "object") checkParsedJson(document, query, limits);
}

/**
 * Walks a parsed JSON value, counting its text's length roughly (each value a few characters, each
 * text and key its length) and its depth; stops as soon as either passes its limit.
 */
function checkParsedJson(root: object, query: InlineQuery, limits: Required<InlineDocumentLimits>): void {
  const pending: { value: object; depth: number }[] = [{ value: root, depth: 1 }];
  let size = 0;
  const count = (value: unknown, depth: number): void => {
    if (typeof value === "string") size += value.length + 2;
    else if (typeof value === "object" && value !== null) {
      if (depth > limits.maxDepth) throw tooDeep(query, limits);
      pending.push({ value, depth });
      size += 2;
    } else size += 4;
    if (size > limits.maxDocumentChars) {
      throw tooLarge(query, `more than ${limits.maxDocumentChars} characters of JSON`, limits);
    }
  };
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, depth } = item;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) count(value[index], depth + 1);
    } else {
      for (const key in value) {
        size += key.length + 3;
        count((value as Record<string, unknown>)[key], depth + 1);
      }
    }
  }
}

function advice(query: InlineQuery): string {
  const tool = query.helper === "xpath" ? "xpath" : "json_path";
  return (
    `(option of the ${query.helper}() helper: ${query.helper}(query, { maxDocumentChars, maxDepth }); ` +
    `or query it with the ${tool} tool step, which runs in a worker of the budget)`
  );
}

function tooLarge(query: InlineQuery, found: string, limits: Required<InlineDocumentLimits>): RoutekitError {
  return new RoutekitError(
    "EXPRESSION_FAILED",
    `${query.label}: the document has ${found}, more than the ${limits.maxDocumentChars} (maxDocumentChars) ` +
      `queried on the route's thread ${advice(query)}`,
  );
}

function tooDeep(query: InlineQuery, limits: Required<InlineDocumentLimits>): RoutekitError {
  return new RoutekitError(
    "EXPRESSION_FAILED",
    `${query.label}: the document is nested more than ${limits.maxDepth} (maxDepth) levels deep, ` +
      `more than is queried on the route's thread ${advice(query)}`,
  );
}
