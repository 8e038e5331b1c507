import { createRequire } from "node:module";
import type * as FontoXPath from "fontoxpath";
import type { Document } from "slimdom";
import { ExpressionError, RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import { BoundedCache } from "./bounded-cache.js";
import { isXmlDocument, parseXml, slimdom } from "./parse-xml.js";
import { rewriteForFirstItem } from "./xpath-first-item.js";
import { xpathItemToString } from "./xpath-result.js";

/** Longest XPath expression accepted. */
export const MAX_XPATH_LENGTH = 4096;

const require = createRequire(import.meta.url);

/** fontoxpath with the settings every call uses. */
interface XPathEngine {
  readonly api: typeof FontoXPath;
  readonly allResults: typeof FontoXPath.evaluateXPath.ALL_RESULTS_TYPE;
  readonly options: { language: typeof FontoXPath.evaluateXPath.XPATH_3_1_LANGUAGE };
  /** The same, with fontoxpath's cache of compiled expressions off (see `XPATH_CACHE_CHARS`). */
  readonly uncachedOptions: {
    language: typeof FontoXPath.evaluateXPath.XPATH_3_1_LANGUAGE;
    disableCache: true;
  };
}
let loaded: XPathEngine | undefined;

/** fontoxpath, loaded on first use (it takes a few hundred ms): routes without XPath never pay. */
function engine(): XPathEngine {
  if (loaded === undefined) {
    const api = require("fontoxpath") as typeof FontoXPath;
    const language = api.evaluateXPath.XPATH_3_1_LANGUAGE;
    loaded = {
      api,
      allResults: api.evaluateXPath.ALL_RESULTS_TYPE,
      options: { language },
      uncachedOptions: { language, disableCache: true },
    };
  }
  return loaded;
}

/**
 * Characters of distinct expressions fontoxpath may keep compiled: its cache, keyed by text, has
 * no bound of its own, and it never forgets. Past this, new expressions compile on every call (a
 * process fed distinct untrusted expressions, as a json_path worker is, stays bounded).
 */
const XPATH_CACHE_CHARS = 256 * 1024;
let cachedChars = 0;

/** What we know about one expression; fontoxpath caches the compiled form itself, keyed by text. */
interface XPathPlan {
  /** Whether fontoxpath may cache it (and its rewrite): decided once, within `XPATH_CACHE_CHARS`. */
  readonly cached: boolean;
  /** The first-item rewrite (see xpath-first-item.ts); `null` when there is none, `undefined` until needed. */
  rewritten: string | null | undefined;
  /** Set once the original raised XPTY0004: the rewrite gives the same result wherever the original succeeds. */
  preferRewritten: boolean;
}

const plans = new BoundedCache<XPathPlan>(1000);
let syntaxDocument: Document | undefined;

function errorCode(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  return /(?:^|Error: )([A-Z]{4}\d{4})/m.exec(message)?.[1];
}

function toXPathError(expression: string, error: unknown): RoutekitError {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  if (code === "XPST0003") {
    const detail = /XPST0003: ([^\n]*)/.exec(message)?.[1] ?? "Failed to parse script";
    // fontoxpath lists every token it could accept; past a few that helps nobody.
    const shortDetail =
      detail.length > 80 ? detail.replace(/Expected .*$/, "Expected an expression") : detail;
    const location = /at <>:(\d+):(\d+)/.exec(message);
    const line = Number(location?.[1] ?? 1);
    const column = Number(location?.[2] ?? 1);
    const where = line > 1 ? `line ${line}, column ${column}` : `column ${column}`;
    return new ExpressionError(
      expression,
      `XPath "${expression}": syntax error at ${where}: ${shortDetail}`,
      column,
      {
        cause: error,
      },
    );
  }
  const firstLine = message.split("\n")[0] ?? message;
  if (code?.startsWith("XPST") === true) {
    return new ExpressionError(expression, `XPath "${expression}": ${firstLine}`, undefined, {
      cause: error,
    });
  }
  return new RoutekitError("EXPRESSION_FAILED", `XPath "${expression}" failed: ${firstLine}`, {
    cause: error,
  });
}

function planFor(expression: string): XPathPlan {
  let plan = plans.get(expression);
  if (plan === undefined) {
    if (typeof expression !== "string" || expression.trim() === "") {
      throw new ExpressionError(
        String(expression),
        `XPath must be a non-empty text, found ${describeValue(expression)}`,
      );
    }
    if (expression.length > MAX_XPATH_LENGTH) {
      throw new ExpressionError(
        expression.slice(0, 80),
        `XPath is ${expression.length} characters long; the limit is ${MAX_XPATH_LENGTH}`,
      );
    }
    const cached = cachedChars + expression.length <= XPATH_CACHE_CHARS;
    if (cached) cachedChars += expression.length;
    plan = { cached, rewritten: undefined, preferRewritten: false };
    plans.set(expression, plan);
  }
  return plan;
}

function run(expression: string, document: Document, cached: boolean): unknown[] {
  const { api, allResults, options, uncachedOptions } = engine();
  return api.evaluateXPath(expression, document, null, null, allResults, cached ? options : uncachedOptions);
}

function evaluateItems(expression: string, document: Document): unknown[] {
  const plan = planFor(expression);
  if (plan.preferRewritten && typeof plan.rewritten === "string") {
    try {
      return run(plan.rewritten, document, plan.cached);
    } catch {
      // fall through: the original's own result or error is the one to report
    }
  }
  try {
    return run(expression, document, plan.cached);
  } catch (error) {
    if (errorCode(error) !== "XPTY0004") throw toXPathError(expression, error);
    if (plan.rewritten === undefined) plan.rewritten = rewriteForFirstItem(expression) ?? null;
    if (plan.rewritten === null) throw toXPathError(expression, error);
    try {
      const items = run(plan.rewritten, document, plan.cached);
      plan.preferRewritten = true;
      return items;
    } catch {
      throw toXPathError(expression, error);
    }
  }
}

/**
 * Checks the syntax of an XPath expression without a document; throws an `ExpressionError`
 * naming the expression and the column.
 */
export function checkXPathSyntax(expression: string): void {
  planFor(expression);
  syntaxDocument ??= new (slimdom().Document)();
  try {
    engine().api.parseScript(expression, engine().options, syntaxDocument);
  } catch (error) {
    throw toXPathError(expression, error);
  }
}

/**
 * Evaluates an XPath expression with XPath 1.0 results: a node-set gives the string value of its
 * first node (null when empty), numbers are formatted as XPath 1.0 does, booleans "true"/"false".
 * XML text is parsed first (a `<!DOCTYPE` is refused).
 */
export function evaluateXPath(xml: string | Document, expression: string): string | null {
  planFor(expression);
  const document = typeof xml === "string" ? parseXml(xml) : xml;
  if (!isXmlDocument(document)) {
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `XPath "${expression}": expected XML text or a parsed document, found ${describeValue(xml)}`,
    );
  }
  const items = evaluateItems(expression, document);
  return items.length === 0 ? null : xpathItemToString(items[0]);
}
