// The regex_extract job a budget worker runs (a module of its own: functions cannot cross threads).
import { LlmToolsError } from "../errors.js";
import { compilePattern, type PatternFacts } from "./compile-pattern.js";
import { re2js } from "./re2js-module.js";

/** One matching job: the pattern as its engine reads it, the text, and what to keep. */
export interface RegexJob {
  readonly engine: "re2" | "native";
  readonly source: string;
  readonly flags: number | string;
  readonly text: string;
  readonly group: number | string;
  readonly all: boolean;
  readonly maxMatches: number;
}

function matchesOf(
  job: RegexJob,
): Iterable<RegExpMatchArray | ((string | null)[] & { groups?: Record<string, string> })> {
  if (job.engine === "re2")
    return re2js()
      .RE2JS.compile(job.source, job.flags as number)
      .matchAll(job.text) as never;
  return job.text.matchAll(new RegExp(job.source, `${String(job.flags)}g`));
}

/**
 * Collects the selected group of each match (only the first unless `all`, at most `maxMatches`);
 * stops with TOOL_LIMIT_EXCEEDED once the values' JSON text would pass `maxOutputBytes`.
 */
export function regexJob(job: RegexJob, limits: { readonly maxOutputBytes: number }): string[] {
  const values: string[] = [];
  let bytes = 2;
  for (const match of matchesOf(job)) {
    const value = typeof job.group === "number" ? match[job.group] : match.groups?.[job.group];
    if (value === undefined || value === null) continue;
    bytes += Buffer.byteLength(JSON.stringify(value)) + 1;
    if (bytes > limits.maxOutputBytes) throw outputLimitError(limits.maxOutputBytes);
    values.push(value);
    if (!job.all || values.length >= job.maxMatches) break;
  }
  return values;
}

/** The error for matches whose JSON text passes `maxOutputBytes`. */
export function outputLimitError(maxOutputBytes: number): LlmToolsError {
  return new LlmToolsError(
    "TOOL_LIMIT_EXCEEDED",
    "regex_extract",
    `regex_extract: the matches add up to more than maxOutputBytes (${maxOutputBytes}) bytes of JSON`,
  );
}

/** A first compile slower than this is not repeated to measure a warm one: it cannot be cheap. */
const REMEASURE_BELOW_MS = 50;

/**
 * Compiles a pattern the calling thread has not yet seen and reports what it is (engine, groups,
 * program size) and how long compiling took here, warm (a fresh worker's first compile runs cold
 * code, so a quick one is repeated and the repeat timed): the calling thread compiles it again
 * only when that was cheap. A pattern neither engine accepts throws the same input error as on the
 * calling thread.
 */
export function patternFactsJob(job: { readonly pattern: string }): PatternFacts {
  re2js(); // loaded before the clock starts: the calling thread has its own copy loaded already
  let startedAt = performance.now();
  const { re2: _compiled, ...facts } = compilePattern(job.pattern);
  let compileMs = performance.now() - startedAt;
  if (compileMs < REMEASURE_BELOW_MS) {
    startedAt = performance.now();
    compilePattern(job.pattern);
    compileMs = performance.now() - startedAt;
  }
  return { ...facts, compileMs };
}
