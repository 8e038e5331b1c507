import { defineBudgetTask } from "@routekit/core";
import { BoundedCache } from "@routekit/core/internal";
import { runToolJob } from "../tool-budget.js";
import { type CompiledPattern, compilePattern, type PatternFacts } from "./compile-pattern.js";
import type { ResolvedRegexExtractOptions } from "./regex-extract-options.js";

/**
 * Patterns compiled on the calling thread without being measured first: at most this many
 * characters, with counted repetitions adding up to at most INLINE_REPEAT_TOTAL. Anything longer
 * can take hundreds of milliseconds to compile (a flat 4 KB pattern of `.{1000}` pieces compiles to
 * 580,000 instructions and 44 MB; 4 KB of `\pL*` takes 0.6 s for 2,000 instructions).
 */
const INLINE_COMPILE_CHARS = 64;
const INLINE_REPEAT_TOTAL = 256;
/** A pattern measured in a worker is compiled again on the calling thread only within these. */
const INLINE_COMPILE_MS = 5;
const INLINE_PROGRAM_SIZE = 4096;
/** Estimated bytes of one compiled re2js instruction (measured: 44 MB for 580,000). */
const BYTES_PER_INSTRUCTION = 80;
const PATTERN_CACHE_ENTRIES = 256;
/** Estimated bytes the cache of compiled patterns may hold. */
export const PATTERN_CACHE_BYTES = 16 * 1024 * 1024;

const patterns = new BoundedCache<CompiledPattern>(PATTERN_CACHE_ENTRIES, {
  maxBytes: PATTERN_CACHE_BYTES,
  sizeOf: (key, pattern) =>
    2 * (key.length + pattern.source.length) +
    256 +
    (pattern.re2 === undefined ? 0 : pattern.programSize * BYTES_PER_INSTRUCTION),
});

const PATTERN_FACTS_TASK = defineBudgetTask<{ pattern: string }, PatternFacts>(
  new URL("./regex-task.js", import.meta.url),
  "patternFactsJob",
);

/**
 * A pattern's compiled form, from the cache or compiled now. The route author's fixed pattern and
 * short patterns without large counted repetitions compile here; any other pattern from the input
 * is compiled first in a worker of the budget (bounded by `matchTimeoutMs` and the budget's memory),
 * and compiled again here only when that was cheap (a small program compiled in a few
 * milliseconds); otherwise only its facts are kept and it always matches in a worker.
 */
export function cachedPattern(
  source: string,
  trusted: boolean,
  options: ResolvedRegexExtractOptions,
  signal: AbortSignal | undefined,
): CompiledPattern | Promise<CompiledPattern> {
  const cached = patterns.get(source);
  if (cached !== undefined) return cached;
  if (trusted || cheapToCompile(source)) return remember(source, compilePattern(source));
  return runToolJob({
    toolName: "regex_extract",
    task: PATTERN_FACTS_TASK,
    input: { pattern: source },
    budget: options.budget,
    timeoutMs: options.matchTimeoutMs,
    timeoutOption: "matchTimeoutMs",
    activity: "compiling the pattern",
    maxOutputBytes: 4 * source.length + 4096,
    signal,
  }).then((facts) => remember(source, fromFacts(source, facts)));
}

/** Whether a pattern is short enough, and repeats little enough, to compile here unmeasured. */
export function cheapToCompile(source: string): boolean {
  if (source.length > INLINE_COMPILE_CHARS) return false;
  let total = 0;
  for (const count of source.matchAll(/\d+/g)) total += Number(count[0]);
  return total <= INLINE_REPEAT_TOTAL;
}

function fromFacts(source: string, facts: PatternFacts): CompiledPattern {
  const { compileMs, ...known } = facts;
  if (known.engine === "re2" && compileMs <= INLINE_COMPILE_MS && known.programSize <= INLINE_PROGRAM_SIZE) {
    return compilePattern(source);
  }
  return { ...known, re2: undefined };
}

function remember(source: string, pattern: CompiledPattern): CompiledPattern {
  patterns.set(source, pattern);
  return pattern;
}

/** The estimated bytes the cache of compiled patterns holds (for tests and diagnostics). */
export function patternCacheBytes(): number {
  return patterns.bytes;
}
