import { ExpressionError } from "../errors/errors.js";
import { parsesAsXPath1 } from "./xpath-first-item.js";
import { tokenizeXPath } from "./xpath-tokens.js";

/**
 * Functions an untrusted XPath may call: XPath 1.0's library plus `upper-case`, `lower-case` and
 * `ends-with`. None of them takes a regular expression or builds large sequences.
 */
export const UNTRUSTED_XPATH_FUNCTIONS: readonly string[] = [
  "last",
  "position",
  "count",
  "local-name",
  "namespace-uri",
  "name",
  "string",
  "concat",
  "starts-with",
  "ends-with",
  "contains",
  "substring",
  "substring-before",
  "substring-after",
  "string-length",
  "normalize-space",
  "translate",
  "upper-case",
  "lower-case",
  "boolean",
  "not",
  "true",
  "false",
  "lang",
  "number",
  "sum",
  "floor",
  "ceiling",
  "round",
];

const ALLOWED = new Set(UNTRUSTED_XPATH_FUNCTIONS);

/** XPath 2.0/3.1 constructs refused by name, found in the text with its string literals blanked out. */
const REFUSED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bfunction\s*\(/, "an inline function (function(...))"],
  [/\blet\s*\$/, "a let binding (let $x := ...)"],
  [/\bfor\s*\$/, "a for expression (for $x in ...)"],
  [/\b(?:some|every)\s*\$/, "a quantified expression (some/every $x in ...)"],
  [/:=/, "a variable binding (:=)"],
  [/=>/, "the arrow operator (=>)"],
  [/#\s*\d/, "a function reference (name#arity)"],
  [/\b(?:map|array)\s*\{/, "a map or array constructor"],
  [/\|\|/, "the string concatenation operator (||)"],
  [/(?:^|[^=!<>])!(?!=)/, "the simple map operator (!)"],
];

/**
 * Checks an XPath expression that came from an untrusted source (a model, a message) against the
 * dialect the tools accept: XPath 1.0 expressions, calling only the functions in
 * `UNTRUSTED_XPATH_FUNCTIONS`. Refused, each by name: inline functions, `let`, `for`,
 * `some`/`every`, ranges (`1 to 10`), the arrow and simple map operators, function references,
 * maps and arrays, `||`, and any other function. Throws an `ExpressionError` naming what it found.
 */
export function checkUntrustedXPath(expression: string): void {
  const blanked = blankLiterals(expression);
  for (const [pattern, what] of REFUSED) {
    const found = pattern.exec(blanked);
    if (found !== null) throw refused(expression, what, found.index);
  }
  const tokens = tokenizeXPath(expression);
  if (tokens === undefined || !parsesAsXPath1(expression)) {
    const range = /\bto\b/.exec(blanked);
    if (range !== null) throw refused(expression, "a range (a to b)", range.index);
    throw new ExpressionError(
      expression,
      `XPath "${expression}": only XPath 1.0 syntax is accepted from an untrusted source, and this is not XPath 1.0`,
    );
  }
  for (const token of tokens) {
    if (token.type !== "function") continue;
    const name = token.text.startsWith("fn:") ? token.text.slice(3) : token.text;
    if (!ALLOWED.has(name)) {
      throw refused(
        expression,
        `the function ${token.text}()`,
        token.start,
        "XPath 1.0 functions and upper-case, lower-case, ends-with",
      );
    }
  }
}

function refused(
  expression: string,
  what: string,
  index: number,
  accepted = "XPath 1.0 expressions",
): ExpressionError {
  const column = index + 1;
  return new ExpressionError(
    expression,
    `XPath "${expression}": ${what} at column ${column} is not accepted from an untrusted source (accepted: ${accepted})`,
    column,
  );
}

/** The text with the inside of every string literal replaced by spaces, offsets kept. */
function blankLiterals(text: string): string {
  return text.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'/g, (literal) => `"${" ".repeat(literal.length - 2)}"`);
}
