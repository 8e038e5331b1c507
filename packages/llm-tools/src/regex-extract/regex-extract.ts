import { defineBudgetTask } from "@routekit/core";
import type { RE2JS } from "re2js";
import { LlmToolsError } from "../errors.js";
import { resolveOncePerObject } from "../resolve-once.js";
import { runToolJob } from "../tool-budget.js";
import type { CompiledPattern } from "./compile-pattern.js";
import { cachedPattern } from "./pattern-cache.js";
import {
  checkRegexExtractInput,
  type RegexExtractInput,
  type RegexExtractRequest,
  readRegexExtractInput,
} from "./regex-extract-input.js";
import {
  type RegexExtractOptions,
  type ResolvedRegexExtractOptions,
  resolveRegexExtractOptions,
} from "./regex-extract-options.js";
import { outputLimitError, type RegexJob } from "./regex-task.js";
import { selectGroup } from "./select-group.js";
import type { ValueSelection } from "./value-selection.js";

const TOOL_NAME = "regex_extract";
/** Text length times re2js program size up to which a match runs on the calling thread. */
const INLINE_WORK_LIMIT = 1 << 17;
/** Longest time an inline match may take before the job moves to a worker. */
const INLINE_SLICE_MS = 25;
const REGEX_TASK = defineBudgetTask<RegexJob, string[]>(
  new URL("./regex-task.js", import.meta.url),
  "regexJob",
);

/**
 * Extracts text by a regular expression. Resolves with JSON text: the first match (or the selected
 * group) as a JSON string, an array of strings when `all` is true, or `null` when nothing matches.
 * Rejects with a ToolInputError for bad input, TOOL_LIMIT_EXCEEDED for oversized text or pattern,
 * TOOL_TIMEOUT when matching exceeds `matchTimeoutMs`, or `signal.reason` when aborted.
 */
export function regexExtract(
  input: RegexExtractInput,
  options?: RegexExtractOptions,
  signal?: AbortSignal,
): Promise<string> {
  try {
    signal?.throwIfAborted();
    const resolved = resolveRegexExtractOptions(options);
    return Promise.resolve(extract(checkRegexExtractInput(input, resolved), resolved, signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs regex_extract on a tool body: an input object, its JSON text, or (when the options fix
 * `pattern`) the text itself. Resolves with the same JSON text as regexExtract.
 */
export function runRegexExtract(
  body: unknown,
  options?: RegexExtractOptions,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return Promise.resolve(extractFromBody(body, options, signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Like runRegexExtract, but returns the text directly when the match ran on this thread (small
 * re2js jobs), and a promise only when it went to a worker; throws bad input synchronously.
 */
export function extractFromBody(
  body: unknown,
  options: RegexExtractOptions | undefined,
  signal: AbortSignal | undefined,
): string | Promise<string> {
  signal?.throwIfAborted();
  const resolved = resolveOnce(options);
  return extract(readRegexExtractInput(body, resolved), resolved, signal);
}

/** A request's compiled pattern and what to take from its matches. */
interface MatchPlan {
  readonly pattern: CompiledPattern;
  readonly selection: ValueSelection;
}

/**
 * The plan of requests whose pattern, group and `all` all come from the options (a step with a
 * fixed pattern), made by the first such call that passes the checks and reused by the next ones.
 */
const fixedPlans = new WeakMap<ResolvedRegexExtractOptions, MatchPlan>();

function extract(
  request: RegexExtractRequest,
  options: ResolvedRegexExtractOptions,
  signal: AbortSignal | undefined,
): string | Promise<string> {
  const fixed =
    request.pattern === options.pattern &&
    request.group === options.group &&
    request.all === (options.all ?? false);
  const plan = fixed ? fixedPlans.get(options) : undefined;
  if (plan === undefined) {
    checkLength("pattern", request.pattern, options.maxPatternChars, "maxPatternChars");
  }
  checkLength("text", request.text, options.maxTextChars, "maxTextChars");
  if (plan !== undefined) return runPlan(plan, request.text, options, signal);
  const trusted = request.pattern === options.pattern;
  const pattern = cachedPattern(request.pattern, trusted, options, signal);
  if (!(pattern instanceof Promise))
    return runPlan(planOf(pattern, request, fixed, options), request.text, options, signal);
  return pattern.then((compiled) =>
    runPlan(planOf(compiled, request, fixed, options), request.text, options, signal),
  );
}

function planOf(
  pattern: CompiledPattern,
  request: RegexExtractRequest,
  fixed: boolean,
  options: ResolvedRegexExtractOptions,
): MatchPlan {
  const selection = {
    group: selectGroup(request.group, pattern),
    all: request.all,
    maxMatches: options.maxMatches,
  };
  const plan = { pattern, selection };
  if (fixed) fixedPlans.set(options, plan);
  return plan;
}

function runPlan(
  plan: MatchPlan,
  text: string,
  options: ResolvedRegexExtractOptions,
  signal: AbortSignal | undefined,
): string | Promise<string> {
  const { all } = plan.selection;
  const { maxOutputBytes } = options;
  const found = findValues(plan.pattern, text, plan.selection, options, signal);
  if (Array.isArray(found)) return render(found, all, maxOutputBytes);
  return found.then((values) => render(values, all, maxOutputBytes));
}

/** The values as JSON text: `null` for none, the first one, or all of them (`all`); bounded by `maxOutputBytes`. */
function render(values: string[], all: boolean, maxOutputBytes: number): string {
  const text = values.length === 0 ? "null" : JSON.stringify(all ? values : values[0]);
  if (text.length > maxOutputBytes / 3 && Buffer.byteLength(text) > maxOutputBytes) {
    throw outputLimitError(maxOutputBytes);
  }
  return text;
}

/**
 * Small re2js jobs run here, bounded by a time slice (re2js is linear-time, and the work limit
 * bounds the text times the program size); larger ones, and every pattern only the JavaScript
 * engine accepts, run under the budget: in a worker terminated at the remaining timeout.
 */
function findValues(
  pattern: CompiledPattern,
  text: string,
  selection: ValueSelection,
  options: ResolvedRegexExtractOptions,
  signal: AbortSignal | undefined,
): string[] | Promise<string[]> {
  const timeoutMs = options.matchTimeoutMs;
  let spentMs = 0;
  if (pattern.re2 !== undefined && text.length * pattern.programSize <= INLINE_WORK_LIMIT) {
    const sliceMs = Math.min(INLINE_SLICE_MS, timeoutMs);
    const values = collectRe2Values(pattern.re2, text, selection, sliceMs);
    if (values !== undefined) return values;
    spentMs = sliceMs;
  }
  const remainingMs = Math.max(1, Math.ceil(timeoutMs - spentMs));
  return runToolJob({
    toolName: TOOL_NAME,
    task: REGEX_TASK,
    input: { engine: pattern.engine, source: pattern.source, flags: pattern.flags, text, ...selection },
    budget: options.budget,
    timeoutMs: remainingMs,
    statedTimeoutMs: timeoutMs,
    timeoutOption: "matchTimeoutMs",
    activity: "matching",
    maxOutputBytes: options.maxOutputBytes,
    signal,
  });
}

/**
 * The inline re2js walk: keeps the selected group of each match (only the first unless `all`, at
 * most `maxMatches`) over re2js's matcher (no match arrays built). Every 64 matches it checks the
 * clock: the slice starts at the first check, so a small job never reads the clock at all (the
 * work limit already bounds what runs before it). Undefined when the slice ran out.
 */
function collectRe2Values(
  re2: RE2JS,
  text: string,
  selection: ValueSelection,
  sliceMs: number,
): string[] | undefined {
  const values: string[] = [];
  const matcher = re2.matcher(text);
  const group = selection.group;
  let count = 0;
  let stopAt = Number.POSITIVE_INFINITY;
  while (matcher.find()) {
    const value = typeof group === "number" ? matcher.group(group) : matcher.group(group);
    if (value !== null && value !== undefined) {
      values.push(value);
      if (!selection.all || values.length >= selection.maxMatches) return values;
    }
    if ((++count & 63) === 0) {
      const now = performance.now();
      if (stopAt === Number.POSITIVE_INFINITY) stopAt = now + sliceMs;
      else if (now > stopAt) return undefined;
    }
  }
  return values;
}

/** Resolved options per options object: a step resolves its fixed options once, not per call. */
const resolveOnce = resolveOncePerObject(resolveRegexExtractOptions);

function checkLength(key: string, value: string, limit: number, option: string): void {
  if (value.length > limit) {
    throw new LlmToolsError(
      "TOOL_LIMIT_EXCEEDED",
      TOOL_NAME,
      `${TOOL_NAME}: key '${key}' has ${value.length} characters, more than ${option} (${limit})`,
    );
  }
}
