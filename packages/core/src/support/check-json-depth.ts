/** Deepest nesting of arrays and objects accepted in JSON from outside unless an option says otherwise. */
export const DEFAULT_MAX_JSON_DEPTH = 128;

/** Where JSON text first nests deeper than a limit. */
export interface JsonDepthExcess {
  /** The limit that was passed. */
  readonly maxDepth: number;
  /** Offset (UTF-16 code units) of the `[` or `{` that opened one level too many. */
  readonly position: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Measures the nesting of JSON text in one linear pass before it is parsed: brackets and braces
 * inside strings (escapes included) do not count. Returns where the text first opens more than
 * `maxDepth` levels, or undefined when it stays within. The text need not be valid JSON: the
 * parser judges that; this only bounds what parsing it could cost.
 */
export function checkJsonDepth(text: string, maxDepth: number): JsonDepthExcess | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth++;
      if (depth > maxDepth) return { maxDepth, position: index };
    } else if ((code === CLOSE_BRACKET || code === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

/** The sentence every refusal of too-deep JSON carries: what the limit is and where it was passed. */
export function jsonDepthMessage(excess: JsonDepthExcess): string {
  return `JSON nested more than ${excess.maxDepth} levels deep (at character ${excess.position + 1})`;
}
