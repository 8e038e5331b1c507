import { type Budget, checkJsonPath } from "@routekit/core";
import { budgetOption } from "../budget-option.js";
import { LlmToolsError } from "../errors.js";
import { checkKnownOptions, integerOption, optionError } from "../http-fetch/option-checks.js";

/** Options of json_path. */
export interface JsonPathOptions {
  /**
   * A fixed JSONPath. When set, the body is the document itself (an object, an array or JSON
   * text) and no `{json, path}` input is read: the enrichment form `jsonPath({ path })`.
   */
  path?: string;
  /**
   * Largest document accepted, in UTF-8 bytes of its JSON text (a document given as an object is
   * measured as JSON text too). Default 1 MiB.
   */
  maxDocumentBytes?: number;
  /**
   * Longest time a query from the input may take, from submission to result, in milliseconds
   * (default 1000). Such a query runs in a worker of the budget, terminated at this deadline.
   */
  timeoutMs?: number;
  /** Largest result accepted, in UTF-8 bytes of its JSON text (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * With a fixed `path`: documents whose JSON text has up to this many characters are queried on
   * the route's thread; larger ones in a worker of the budget (default 16384).
   */
  inlineDocumentChars?: number;
  /** The budget queries from the input run under (default: the shared budget, `sharedBudget()`). */
  budget?: Budget;
}

/** JsonPathOptions checked, with defaults applied. */
export interface ResolvedJsonPathOptions {
  readonly path: string | undefined;
  readonly maxDocumentBytes: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly inlineDocumentChars: number;
  readonly budget: Budget | undefined;
}

/** Default limits of json_path. */
export const JSON_PATH_DEFAULTS = {
  maxDocumentBytes: 1024 * 1024,
  timeoutMs: 1000,
  maxOutputBytes: 1024 * 1024,
  inlineDocumentChars: 16 * 1024,
} as const;

const TOOL = "json_path";
const KNOWN = [
  "path",
  "maxDocumentBytes",
  "timeoutMs",
  "maxOutputBytes",
  "inlineDocumentChars",
  "budget",
] as const;
const resolved = new WeakMap<JsonPathOptions, ResolvedJsonPathOptions>();
const NO_OPTIONS: JsonPathOptions = {};

/**
 * Checks json_path options once per options object; a fixed `path` is checked for syntax here,
 * so a bad one fails when the route is added.
 */
export function resolveJsonPathOptions(options: JsonPathOptions = NO_OPTIONS): ResolvedJsonPathOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(TOOL, "options", "an object", options);
  }
  const cached = resolved.get(options);
  if (cached !== undefined) return cached;
  checkKnownOptions(options, KNOWN, TOOL);
  const { path } = options;
  if (path !== undefined) {
    if (typeof path !== "string" || path.trim() === "") {
      throw optionError(TOOL, "path", "a non-empty JSONPath text", path);
    }
    try {
      checkJsonPath(path);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LlmToolsError("TOOL_OPTION_INVALID", TOOL, `${TOOL}: option 'path' is invalid: ${reason}`, {
        cause: error,
      });
    }
  }
  const result: ResolvedJsonPathOptions = {
    path,
    maxDocumentBytes: integerOption(
      options.maxDocumentBytes,
      "maxDocumentBytes",
      1,
      JSON_PATH_DEFAULTS.maxDocumentBytes,
      TOOL,
    ),
    timeoutMs: integerOption(options.timeoutMs, "timeoutMs", 1, JSON_PATH_DEFAULTS.timeoutMs, TOOL),
    maxOutputBytes: integerOption(
      options.maxOutputBytes,
      "maxOutputBytes",
      1,
      JSON_PATH_DEFAULTS.maxOutputBytes,
      TOOL,
    ),
    inlineDocumentChars: integerOption(
      options.inlineDocumentChars,
      "inlineDocumentChars",
      0,
      JSON_PATH_DEFAULTS.inlineDocumentChars,
      TOOL,
    ),
    budget: budgetOption(options.budget, TOOL),
  };
  resolved.set(options, result);
  return result;
}
