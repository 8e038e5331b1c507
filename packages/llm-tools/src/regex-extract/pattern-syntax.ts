/** Capture groups of a JavaScript pattern: how many, and the names of the named ones. */
export interface PatternGroups {
  readonly count: number;
  readonly names: readonly string[];
}

/**
 * Counts the capture groups of a JavaScript (`u` mode) pattern by scanning it once: escapes and
 * character classes are skipped, `(?:`, lookaround and `(?<=`/`(?<!` do not capture.
 * The pattern must already compile; this only reads its structure.
 */
export function javascriptPatternGroups(source: string): PatternGroups {
  let count = 0;
  const names: string[] = [];
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") {
      index++;
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
    } else if (char === "(") {
      if (source[index + 1] !== "?") {
        count++;
      } else if (source[index + 2] === "<" && source[index + 3] !== "=" && source[index + 3] !== "!") {
        count++;
        const end = source.indexOf(">", index + 3);
        names.push(source.slice(index + 3, end));
      }
    }
  }
  return { count, names };
}

/** Inline flags at the very start of a pattern, e.g. `(?i)` or `(?ms)`. */
const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/;

/**
 * Splits a leading inline flag group off a pattern for the JavaScript engine, which has no inline
 * flags: `(?i)abc` becomes `abc` with the flags `iu`. Only `i`, `m` and `s` are accepted there.
 * Returns undefined for the flags when a letter is not one of those.
 */
export function splitLeadingFlags(pattern: string): { body: string; flags: string | undefined } {
  const found = LEADING_FLAGS.exec(pattern);
  if (found === null) return { body: pattern, flags: "u" };
  const letters = found[1] ?? "";
  if (!/^[ims]+$/.test(letters) || new Set(letters).size !== letters.length) {
    return { body: pattern, flags: undefined };
  }
  return { body: pattern.slice(found[0].length), flags: `${letters}u` };
}

/**
 * Rewrites JavaScript's `\uXXXX` and `\u{X...}` escapes into RE2's `\x{...}`; everything else,
 * including an escaped backslash before a `u`, is left as it is.
 */
export function translateUnicodeEscapes(pattern: string): string {
  if (!pattern.includes("\\u")) return pattern;
  let result = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char !== "\\") {
      result += char;
      continue;
    }
    const rest = pattern.slice(index + 1);
    const fixed = /^u([0-9a-fA-F]{4})/.exec(rest) ?? /^u\{([0-9a-fA-F]{1,6})\}/.exec(rest);
    if (fixed !== null) {
      result += `\\x{${fixed[1]}}`;
      index += fixed[0].length;
    } else {
      result += pattern.slice(index, index + 2);
      index++;
    }
  }
  return result;
}
