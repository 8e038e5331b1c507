import { type Budget, checkXPathSyntax } from "@routekit/core";
import { budgetOption } from "../budget-option.js";
import { LlmToolsError } from "../errors.js";
import { checkKnownOptions, integerOption, optionError } from "../http-fetch/option-checks.js";

/** Options of xpath. */
export interface XPathOptions {
  /**
   * A fixed XPath expression. When set, the body supplies only the document: XML text, or an
   * `{xml}` object: the enrichment form `xpath({ xpath: "string(//title)" })`.
   */
  xpath?: string;
  /** Largest XML text accepted, in UTF-8 bytes. Default 1 MiB. */
  maxDocumentBytes?: number;
  /**
   * Longest time an expression from the input may take, from submission to result, in
   * milliseconds (default 1000). Such an expression runs in a worker of the budget, terminated at
   * this deadline.
   */
  timeoutMs?: number;
  /** Largest result accepted, in UTF-8 bytes (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * With a fixed `xpath`: documents up to this many characters are queried on the route's
   * thread; larger ones in a worker of the budget, like untrusted expressions (default 16384).
   */
  inlineDocumentChars?: number;
  /** The budget expressions from the input run under (default: the shared budget, `sharedBudget()`). */
  budget?: Budget;
}

/** XPathOptions checked, with defaults applied. */
export interface ResolvedXPathOptions {
  readonly xpath: string | undefined;
  readonly maxDocumentBytes: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly inlineDocumentChars: number;
  readonly budget: Budget | undefined;
}

/** Default limits of xpath. */
export const XPATH_DEFAULTS = {
  maxDocumentBytes: 1024 * 1024,
  timeoutMs: 1000,
  maxOutputBytes: 1024 * 1024,
  inlineDocumentChars: 16 * 1024,
} as const;

const TOOL = "xpath";
const KNOWN = [
  "xpath",
  "maxDocumentBytes",
  "timeoutMs",
  "maxOutputBytes",
  "inlineDocumentChars",
  "budget",
] as const;
const resolved = new WeakMap<XPathOptions, ResolvedXPathOptions>();
const NO_OPTIONS: XPathOptions = {};

/**
 * Checks xpath options once per options object; a fixed expression is checked for syntax here,
 * so a bad one fails when the route is added.
 */
export function resolveXPathOptions(options: XPathOptions = NO_OPTIONS): ResolvedXPathOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(TOOL, "options", "an object", options);
  }
  const cached = resolved.get(options);
  if (cached !== undefined) return cached;
  checkKnownOptions(options, KNOWN, TOOL);
  const { xpath } = options;
  if (xpath !== undefined) {
    if (typeof xpath !== "string" || xpath.trim() === "") {
      throw optionError(TOOL, "xpath", "a non-empty XPath expression", xpath);
    }
    try {
      checkXPathSyntax(xpath);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LlmToolsError("TOOL_OPTION_INVALID", TOOL, `${TOOL}: option 'xpath' is invalid: ${reason}`, {
        cause: error,
      });
    }
  }
  const result: ResolvedXPathOptions = {
    xpath,
    maxDocumentBytes: integerOption(
      options.maxDocumentBytes,
      "maxDocumentBytes",
      1,
      XPATH_DEFAULTS.maxDocumentBytes,
      TOOL,
    ),
    timeoutMs: integerOption(options.timeoutMs, "timeoutMs", 1, XPATH_DEFAULTS.timeoutMs, TOOL),
    maxOutputBytes: integerOption(
      options.maxOutputBytes,
      "maxOutputBytes",
      1,
      XPATH_DEFAULTS.maxOutputBytes,
      TOOL,
    ),
    inlineDocumentChars: integerOption(
      options.inlineDocumentChars,
      "inlineDocumentChars",
      0,
      XPATH_DEFAULTS.inlineDocumentChars,
      TOOL,
    ),
    budget: budgetOption(options.budget, TOOL),
  };
  resolved.set(options, result);
  return result;
}
