import type { Budget } from "@routekit/core";
import { checkOptions, type OptionChecks } from "@routekit/core/internal";
import { LlmToolsError, reasonOf } from "../errors.js";
import { resolveOncePerObject } from "../resolve-once.js";
import { BUDGET_OPTION, limitOption, toolOptionsSite } from "../tool-options.js";

/** The limits json_path and xpath share. */
export interface DocumentQueryLimits {
  /**
   * Largest document accepted, in UTF-8 bytes of its text (for json_path, a document given as an
   * object is measured as JSON text too). Default 1 MiB.
   */
  maxDocumentBytes?: number;
  /**
   * Longest time a query from the input may take, from submission to result, in milliseconds
   * (default 1000). Such a query runs in a worker of the budget, terminated at this deadline.
   */
  timeoutMs?: number;
  /** Largest result accepted, in UTF-8 bytes of its text (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * With a fixed query (`path`, `xpath`): documents whose text has up to this many characters are
   * queried on the route's thread; larger ones in a worker of the budget (default 16384).
   */
  inlineDocumentChars?: number;
  /** The budget queries from the input run under (default: the shared budget, `sharedBudget()`). */
  budget?: Budget;
}

/** The limits json_path and xpath share, checked, with defaults applied. */
export interface ResolvedDocumentQueryLimits {
  readonly maxDocumentBytes: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly inlineDocumentChars: number;
  readonly budget: Budget | undefined;
}

/** Default limits of json_path and xpath. */
export const DOCUMENT_QUERY_DEFAULTS = {
  maxDocumentBytes: 1024 * 1024,
  timeoutMs: 1000,
  maxOutputBytes: 1024 * 1024,
  inlineDocumentChars: 16 * 1024,
} as const;

/** How one query tool names and checks its fixed query option (`path`, `xpath`). */
export interface DocumentQueryTool<TQueryKey extends string> {
  readonly toolName: string;
  readonly queryKey: TQueryKey;
  /** What the query option must be, for the message: "a non-empty JSONPath text". */
  readonly expected: string;
  /** Throws when a query's syntax is wrong. */
  readonly checkSyntax: (query: string) => void;
}

const NO_OPTIONS = {};
const LIMIT_CHECKS = {
  maxDocumentBytes: limitOption(DOCUMENT_QUERY_DEFAULTS.maxDocumentBytes),
  timeoutMs: limitOption(DOCUMENT_QUERY_DEFAULTS.timeoutMs),
  maxOutputBytes: limitOption(DOCUMENT_QUERY_DEFAULTS.maxOutputBytes),
  inlineDocumentChars: { type: "integer", min: 0, default: DOCUMENT_QUERY_DEFAULTS.inlineDocumentChars },
  budget: BUDGET_OPTION,
} as const satisfies OptionChecks;

/**
 * The options resolver of a query tool: checks an options object once (unknown keys, each limit,
 * then the fixed query's syntax, so a bad one fails when the route is added) and returns the
 * fixed query under its own key beside the limits.
 */
export function documentQueryResolver<TQueryKey extends string>(
  tool: DocumentQueryTool<TQueryKey>,
): (options?: object) => ResolvedDocumentQueryLimits & { readonly [Key in TQueryKey]: string | undefined } {
  const { toolName, queryKey } = tool;
  const checks: OptionChecks = {
    [queryKey]: { type: "string", pattern: /\S/, expected: tool.expected },
    ...LIMIT_CHECKS,
  };
  const site = toolOptionsSite(toolName);
  const resolve = resolveOncePerObject((options: object) => {
    const checked = checkOptions(checks, options, site);
    const query = checked[queryKey];
    if (typeof query === "string") {
      try {
        tool.checkSyntax(query);
      } catch (error) {
        throw new LlmToolsError(
          "TOOL_OPTION_INVALID",
          toolName,
          `${toolName}: option '${queryKey}' is invalid: ${reasonOf(error)}`,
          { cause: error },
        );
      }
    }
    return { ...checked, [queryKey]: query } as ResolvedDocumentQueryLimits & {
      readonly [Key in TQueryKey]: string | undefined;
    };
  });
  return (options = NO_OPTIONS) => resolve(options);
}
