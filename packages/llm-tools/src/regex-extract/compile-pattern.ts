import type { RE2JS } from "re2js";
import { reasonOf, ToolInputError } from "../errors.js";
import { javascriptPatternGroups, splitLeadingFlags, translateUnicodeEscapes } from "./pattern-syntax.js";
import { re2js } from "./re2js-module.js";

/** Which engine runs a pattern: re2js (linear time) or JavaScript's RegExp in a worker. */
export type PatternEngine = "re2" | "native";

/** A validated pattern, ready to run on its engine. */
export interface CompiledPattern {
  readonly engine: PatternEngine;
  /** The pattern text as its engine reads it. */
  readonly source: string;
  /** re2js flag bits for "re2", RegExp flag letters for "native". */
  readonly flags: number | string;
  /** The compiled re2js pattern, for "re2". */
  readonly re2: RE2JS | undefined;
  /** re2js's program size (a cost measure); 0 for "native". */
  readonly programSize: number;
  readonly groupCount: number;
  readonly groupNames: readonly string[];
}

/** What a worker learned compiling a pattern: everything but the compiled object, and the time it took. */
export type PatternFacts = Omit<CompiledPattern, "re2"> & { readonly compileMs: number };

const TOOL_NAME = "regex_extract";

/**
 * Compiles a pattern: with re2js when it accepts it (everything except backreferences, lookahead
 * and capturing lookbehind), else as a JavaScript RegExp with the `u` flag. A pattern neither
 * engine accepts is an input error naming the key "pattern" and both engines' reasons.
 */
export function compilePattern(pattern: string): CompiledPattern {
  const re2Source = translateUnicodeEscapes(pattern);
  const engine = re2js().RE2JS;
  const re2Flags = engine.LOOKBEHINDS;
  let re2Reason: string;
  try {
    const re2 = engine.compile(re2Source, re2Flags);
    return {
      engine: "re2",
      source: re2Source,
      flags: re2Flags,
      re2,
      programSize: re2.programSize(),
      groupCount: re2.groupCount(),
      groupNames: Object.keys(re2.namedGroups()),
    };
  } catch (error) {
    re2Reason = reasonOf(error);
  }
  const { body, flags } = splitLeadingFlags(pattern);
  if (flags === undefined) {
    throw invalidPattern(
      `a leading inline flag group may only use i, m and s here (RE2 engine: ${re2Reason})`,
    );
  }
  try {
    new RegExp(body, flags);
  } catch (error) {
    const reason = reasonOf(error);
    throw invalidPattern(`${reason} (RE2 engine: ${re2Reason})`);
  }
  const groups = javascriptPatternGroups(body);
  return {
    engine: "native",
    source: body,
    flags,
    re2: undefined,
    programSize: 0,
    groupCount: groups.count,
    groupNames: groups.names,
  };
}

function invalidPattern(reason: string): ToolInputError {
  return new ToolInputError(
    TOOL_NAME,
    `${TOOL_NAME}: key 'pattern' is not a valid regular expression: ${reason}`,
    "pattern",
  );
}
