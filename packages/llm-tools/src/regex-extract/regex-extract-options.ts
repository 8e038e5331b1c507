import type { Budget } from "@routekit/core";
import { budgetOption } from "../budget-option.js";
import { LlmToolsError } from "../errors.js";
import { describe } from "../tool-input.js";

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

type LimitKey = keyof typeof REGEX_EXTRACT_DEFAULTS;
const LIMIT_KEYS: readonly LimitKey[] = [
  "matchTimeoutMs",
  "maxTextChars",
  "maxMatches",
  "maxPatternChars",
  "maxOutputBytes",
];
const KNOWN_KEYS: readonly string[] = [...LIMIT_KEYS, "pattern", "group", "all", "budget"];
/** setTimeout's largest delay; longer timeouts would fire at once. */
const LARGEST_TIMEOUT_MS = 2_147_483_647;

/** Validates regex_extract options; every error names the option, what was expected and what was found. */
export function resolveRegexExtractOptions(options: RegexExtractOptions = {}): ResolvedRegexExtractOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(`options must be an object (found ${describe(options)})`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_KEYS.includes(key)) {
      throw optionError(`unknown option '${key}' (expected one of: ${KNOWN_KEYS.join(", ")})`);
    }
  }
  const limits = { ...REGEX_EXTRACT_DEFAULTS } as Record<LimitKey, number>;
  for (const key of LIMIT_KEYS) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      throw optionError(`option '${key}' must be a positive integer (found ${describe(value)})`);
    }
    limits[key] = value;
  }
  if (limits.matchTimeoutMs > LARGEST_TIMEOUT_MS) {
    throw optionError(
      `option 'matchTimeoutMs' must be at most ${LARGEST_TIMEOUT_MS} (found ${limits.matchTimeoutMs})`,
    );
  }
  const { pattern, group, all } = options;
  if (pattern !== undefined && typeof pattern !== "string") {
    throw optionError(`option 'pattern' must be a string (found ${describe(pattern)})`);
  }
  if (group !== undefined && typeof group !== "string" && !(Number.isInteger(group) && group >= 0)) {
    throw optionError(
      `option 'group' must be a group name or a non-negative integer (found ${describe(group)})`,
    );
  }
  if (all !== undefined && typeof all !== "boolean") {
    throw optionError(`option 'all' must be a boolean (found ${describe(all)})`);
  }
  return {
    matchTimeoutMs: limits.matchTimeoutMs,
    maxTextChars: limits.maxTextChars,
    maxMatches: limits.maxMatches,
    maxPatternChars: limits.maxPatternChars,
    maxOutputBytes: limits.maxOutputBytes,
    budget: budgetOption(options.budget, TOOL_NAME),
    pattern,
    group,
    all,
  };
}

function optionError(message: string): LlmToolsError {
  return new LlmToolsError("TOOL_OPTION_INVALID", TOOL_NAME, `${TOOL_NAME}: ${message}`);
}
