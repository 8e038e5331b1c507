import { ToolInputError } from "../errors.js";
import { describe, optionalBoolean, parseToolInput, requireString } from "../tool-input.js";
import type { ResolvedRegexExtractOptions } from "./regex-extract-options.js";

const TOOL_NAME = "regex_extract";

/** The regex_extract input as a TypeScript caller passes it. */
export interface RegexExtractInput {
  text: string;
  pattern: string;
  /** A group number or name; 0, "0", "" or omitted select the whole match. */
  group?: string | number;
  /** true: every match as an array; false or omitted: the first match. */
  all?: boolean;
}

/** One request after reading: fields fixed by options already applied; `group` not yet resolved. */
export interface RegexExtractRequest {
  readonly text: string;
  readonly pattern: string;
  readonly group: unknown;
  readonly all: boolean;
}

/**
 * Reads a tool body: an input object or its JSON text. When the options fix `pattern`, a string
 * (or byte) body is the text itself. Fields fixed by the options are not read from the body.
 */
export function readRegexExtractInput(
  body: unknown,
  options: ResolvedRegexExtractOptions,
): RegexExtractRequest {
  if (options.pattern !== undefined) {
    if (typeof body === "string") return fixedRequest(body, options.pattern, options);
    if (body instanceof Uint8Array)
      return fixedRequest(new TextDecoder().decode(body), options.pattern, options);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ToolInputError(
        TOOL_NAME,
        `${TOOL_NAME}: expected the text (a string) or an input object with key 'text' (found ${describe(body)})`,
      );
    }
  }
  const input = parseToolInput(body, TOOL_NAME);
  return {
    text: requireString(input, "text", TOOL_NAME),
    pattern: options.pattern ?? requireString(input, "pattern", TOOL_NAME),
    group: options.group ?? input.group,
    all: options.all ?? optionalBoolean(input, "all", TOOL_NAME) ?? false,
  };
}

/** Checks a TypeScript caller's input the same way (JavaScript callers can pass anything). */
export function checkRegexExtractInput(
  input: RegexExtractInput,
  options: ResolvedRegexExtractOptions,
): RegexExtractRequest {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ToolInputError(TOOL_NAME, `${TOOL_NAME}: input must be an object (found ${describe(input)})`);
  }
  return readRegexExtractInput(input, options);
}

function fixedRequest(
  text: string,
  pattern: string,
  options: ResolvedRegexExtractOptions,
): RegexExtractRequest {
  return { text, pattern, group: options.group, all: options.all ?? false };
}
