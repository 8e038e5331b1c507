/** One XPath 1.0 token, with 0-based offsets into the expression text. */
export interface XPathToken {
  readonly type:
    | "literal"
    | "number"
    | "name"
    | "operator"
    | "function"
    | "node-type"
    | "axis"
    | "variable"
    | "punctuation"
    | "end";
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const NODE_TYPES = new Set(["comment", "text", "processing-instruction", "node"]);
const OPERATOR_NAMES = new Set(["and", "or", "mod", "div"]);
const NAME_START = /[A-Za-z_\u00C0-\uFFFF]/;
const NAME_PART = /[A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]/;

function readName(text: string, start: number): number {
  let end = start + 1;
  while (end < text.length && NAME_PART.test(text.charAt(end))) end++;
  return end;
}

function skipSpace(text: string, position: number): number {
  let next = position;
  while (next < text.length && /\s/.test(text.charAt(next))) next++;
  return next;
}

/**
 * Splits an XPath 1.0 expression into tokens, applying the spec's rules for `*` and operator
 * names (XPath 1.0 §3.7). Returns `undefined` for anything outside XPath 1.0 lexical syntax.
 */
export function tokenizeXPath(text: string): XPathToken[] | undefined {
  const tokens: XPathToken[] = [];
  let position = 0;
  const push = (type: XPathToken["type"], start: number, end: number) => {
    tokens.push({ type, text: text.slice(start, end), start, end });
    position = end;
  };
  for (;;) {
    position = skipSpace(text, position);
    if (position >= text.length) break;
    const character = text.charAt(position);
    const pair = text.slice(position, position + 2);
    const previous = tokens[tokens.length - 1];
    const operatorContext =
      previous !== undefined &&
      !(previous.type === "operator") &&
      !(previous.type === "punctuation" && ["@", "::", "(", "[", ","].includes(previous.text));
    if (character === '"' || character === "'") {
      let end = position + 1;
      for (;;) {
        end = text.indexOf(character, end);
        if (end === -1) return undefined;
        if (text.charAt(end + 1) !== character) break;
        end += 2;
      }
      push("literal", position, end + 1);
    } else if (/[0-9]/.test(character) || (character === "." && /[0-9]/.test(text.charAt(position + 1)))) {
      const match = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(position));
      push("number", position, position + (match?.[0].length ?? 1));
    } else if (
      pair === ".." ||
      pair === "::" ||
      pair === "//" ||
      pair === "!=" ||
      pair === "<=" ||
      pair === ">="
    ) {
      push(pair === ".." || pair === "::" ? "punctuation" : "operator", position, position + 2);
    } else if ("()[],.@".includes(character)) {
      push("punctuation", position, position + 1);
    } else if ("/|+-=<>".includes(character)) {
      if (pair === "||" || pair === "<<" || pair === ">>") return undefined;
      push("operator", position, position + 1);
    } else if (character === "$") {
      if (!NAME_START.test(text.charAt(position + 1))) return undefined;
      push("variable", position, readQualifiedName(text, position + 1));
    } else if (character === "*") {
      push(operatorContext ? "operator" : "name", position, position + 1);
    } else if (NAME_START.test(character)) {
      const end = readQualifiedName(text, position);
      const name = text.slice(position, end);
      if (operatorContext) {
        if (!OPERATOR_NAMES.has(name)) return undefined;
        push("operator", position, end);
      } else {
        const after = skipSpace(text, end);
        if (text.charAt(after) === "(") push(NODE_TYPES.has(name) ? "node-type" : "function", position, end);
        else if (text.startsWith("::", after)) push("axis", position, end);
        else push("name", position, end);
      }
    } else {
      return undefined;
    }
  }
  tokens.push({ type: "end", text: "", start: position, end: position });
  return tokens;
}

/** Reads `name`, `prefix:name` or `prefix:*` starting at `start`; returns the end offset. */
function readQualifiedName(text: string, start: number): number {
  const end = readName(text, start);
  if (text.charAt(end) !== ":" || text.charAt(end + 1) === ":") return end;
  if (text.charAt(end + 1) === "*") return end + 2;
  if (NAME_START.test(text.charAt(end + 1))) return readName(text, end + 1);
  return end;
}
