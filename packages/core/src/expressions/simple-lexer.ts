import { syntaxError } from "./expression-errors.js";

/** One token of the simple language; `start` and `end` are 0-based offsets into the whole expression text. */
export type SimpleToken =
  | { readonly kind: "number"; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: "string"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "identifier"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "punctuation"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "end"; readonly value: ""; readonly start: number; readonly end: number };

const TWO_CHARACTER = new Set(["${", "==", "!=", "<=", ">=", "&&", "||", "??"]);
const ONE_CHARACTER = new Set([
  "}",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  "?",
  ":",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "!",
]);
const ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  r: "\r",
  t: "\t",
  $: "$",
  "}": "}",
};

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Splits simple-language text into tokens. With `stopAtClose`, `start` points at a `${` and
 * lexing stops after its matching `}`; otherwise it runs to the end of the text.
 */
export function tokenize(text: string, start: number, stopAtClose: boolean): SimpleToken[] {
  const tokens: SimpleToken[] = [];
  let position = start;
  let depth = 0;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code === 32 || code === 9 || code === 10 || code === 13) {
      position++;
      continue;
    }
    if (isDigit(code)) {
      position = readNumber(text, position, tokens);
    } else if (isIdentifierStart(code) && !(code === 36 && text[position + 1] === "{")) {
      let end = position + 1;
      while (end < text.length) {
        const next = text.charCodeAt(end);
        if (!isIdentifierStart(next) && !isDigit(next)) break;
        end++;
      }
      tokens.push({ kind: "identifier", value: text.slice(position, end), start: position, end });
      position = end;
    } else if (code === 39 || code === 34) {
      position = readString(text, position, tokens);
    } else {
      const pair = text.slice(position, position + 2);
      const symbol = TWO_CHARACTER.has(pair) ? pair : text.charAt(position);
      if (!TWO_CHARACTER.has(symbol) && !ONE_CHARACTER.has(symbol)) {
        throw syntaxError(text, unexpectedCharacterDetail(symbol), position, JSON.stringify(symbol));
      }
      tokens.push({ kind: "punctuation", value: symbol, start: position, end: position + symbol.length });
      position += symbol.length;
      if (symbol === "${") depth++;
      if (symbol === "}") {
        depth--;
        if (stopAtClose && depth === 0) return endWith(tokens, position);
      }
    }
  }
  if (stopAtClose) throw syntaxError(text, 'unclosed "${": expected "}"', start);
  return endWith(tokens, position);
}

function endWith(tokens: SimpleToken[], position: number): SimpleToken[] {
  tokens.push({ kind: "end", value: "", start: position, end: position });
  return tokens;
}

function unexpectedCharacterDetail(symbol: string): string {
  if (symbol === "=") return 'unexpected character (use "==" to compare)';
  if (symbol === "&") return 'unexpected character (use "&&" or AND)';
  if (symbol === "|") return 'unexpected character (use "||" or OR)';
  if (symbol === "{") return 'unexpected character (expressions open with "${")';
  return "unexpected character";
}

function readNumber(text: string, start: number, tokens: SimpleToken[]): number {
  let end = start;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  if (text[end] === "." && isDigit(text.charCodeAt(end + 1))) {
    end++;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  }
  if ((text[end] === "e" || text[end] === "E") && /^[eE][+-]?\d/.test(text.slice(end, end + 3))) {
    end += text[end + 1] === "+" || text[end + 1] === "-" ? 2 : 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  }
  if (end < text.length && isIdentifierStart(text.charCodeAt(end))) {
    throw syntaxError(
      text,
      "a number must not run into a name",
      start,
      JSON.stringify(text.slice(start, end + 1)),
    );
  }
  tokens.push({ kind: "number", value: Number(text.slice(start, end)), start, end });
  return end;
}

function readString(text: string, start: number, tokens: SimpleToken[]): number {
  const quote = text[start];
  let value = "";
  let position = start + 1;
  while (position < text.length) {
    const character = text.charAt(position);
    if (character === quote) {
      tokens.push({ kind: "string", value, start, end: position + 1 });
      return position + 1;
    }
    if (character === "\\") {
      const escaped = text.charAt(position + 1);
      if (escaped === "u") {
        const hex = text.slice(position + 2, position + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          throw syntaxError(text, "bad \\u escape in string: expected four hex digits", position);
        }
        value += String.fromCharCode(Number.parseInt(hex, 16));
        position += 6;
        continue;
      }
      const replacement = ESCAPES[escaped];
      if (replacement === undefined) {
        const shown = escaped === "" ? "the end of the expression" : JSON.stringify(`\\${escaped}`);
        throw syntaxError(
          text,
          "bad escape in string (use \\\\ \\' \\\" \\n \\r \\t \\$ \\} or \\uXXXX)",
          position,
          shown,
        );
      }
      value += replacement;
      position += 2;
      continue;
    }
    value += character;
    position++;
  }
  throw syntaxError(text, `unterminated string: expected a closing ${quote}`, start);
}
