/** Characters Go's encoding/json escapes inside strings, with their escapes. */
const GO_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * Re-encodes JSON text compactly the way Go's encoding/json does: insignificant whitespace
 * dropped and `<`, `>`, `&`, U+2028, U+2029 escaped inside strings. Key order and number text
 * are kept exactly (no float rounding of large integers). Throws a SyntaxError on invalid JSON.
 */
export function reencodeJson(text: string): string {
  JSON.parse(text);
  let output = "";
  let inString = false;
  let escaped = false;
  for (const character of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
      output += GO_ESCAPES[character] ?? character;
    } else if (character === '"') {
      inString = true;
      output += character;
    } else if (character !== " " && character !== "\t" && character !== "\n" && character !== "\r") {
      output += character;
    }
  }
  return output;
}
