import type { Budget } from "@routekit/core";
import { checkOptions, type OptionChecks } from "@routekit/core/internal";
import { BUDGET_OPTION, limitOption, toolOptionsSite } from "../tool-options.js";

const TOOL_NAME = "regex_extract";

/**
 * Options of the regex_extract engine. The guards bound every call; `pattern`, `group` and `all`
 * fix those input fields (the enrichment form: the body then only supplies the text).
 */
export interface RegexExtractOptions {
  /** Longest time a match may run before it is stopped, in milliseconds (default 1000). */
  matchTimeoutMs?: number;
  /** Longest accepted text, in UTF-16 code units (default 1 MiB = 1048576). */
  maxTextChars?: number;
  /** Most values returned when `all` is true (default 64); later matches are dropped. */
  maxMatches?: number;
  /** Longest accepted pattern, in characters (default 4096). */
  maxPatternChars?: number;
  /** Largest result, in UTF-8 bytes of its JSON text (default 1 MiB = 1048576). */
  maxOutputBytes?: number;
  /** The budget matches that leave the calling thread run under (default: the shared budget). */
  budget?: Budget;
  /** A fixed pattern: the input's `pattern` key is then not read. */
  pattern?: string;
  /** A fixed capture group (number or name): the input's `group` key is then not read. */
  group?: string | number;
  /** A fixed `all` flag: the input's `all` key is then not read. */
  all?: boolean;
}

/** Options after validation, with every default filled in. */
export interface ResolvedRegexExtractOptions {
  readonly matchTimeoutMs: number;
  readonly maxTextChars: number;
  readonly maxMatches: number;
  readonly maxPatternChars: number;
  readonly maxOutputBytes: number;
  readonly budget: Budget | undefined;
  readonly pattern: string | undefined;
  readonly group: string | number | undefined;
  readonly all: boolean | undefined;
}

/** The defaults of the regex_extract guards. */
export const REGEX_EXTRACT_DEFAULTS = {
  matchTimeoutMs: 1000,
  maxTextChars: 1_048_576,
  maxMatches: 64,
  maxPatternChars: 4096,
  maxOutputBytes: 1_048_576,
} as const;

/** setTimeout's largest delay; longer timeouts would fire at once. */
const LARGEST_TIMEOUT_MS = 2_147_483_647;

const CHECKS = {
  matchTimeoutMs: limitOption(REGEX_EXTRACT_DEFAULTS.matchTimeoutMs, LARGEST_TIMEOUT_MS),
  maxTextChars: limitOption(REGEX_EXTRACT_DEFAULTS.maxTextChars),
  maxMatches: limitOption(REGEX_EXTRACT_DEFAULTS.maxMatches),
  maxPatternChars: limitOption(REGEX_EXTRACT_DEFAULTS.maxPatternChars),
  maxOutputBytes: limitOption(REGEX_EXTRACT_DEFAULTS.maxOutputBytes),
  pattern: { type: "string" },
  group: {
    type: "custom",
    expected: "a group name or a non-negative integer",
    check: (value) => typeof value === "string" || (Number.isSafeInteger(value) && (value as number) >= 0),
  },
  all: { type: "boolean" },
  budget: BUDGET_OPTION,
} as const satisfies OptionChecks;

/** Validates regex_extract options; every error names the option, what was expected and what was found. */
export function resolveRegexExtractOptions(options: RegexExtractOptions = {}): ResolvedRegexExtractOptions {
  const checked = checkOptions(CHECKS, options, toolOptionsSite(TOOL_NAME));
  return {
    ...checked,
    budget: checked.budget as Budget | undefined,
    group: checked.group as string | number | undefined,
  };
}
