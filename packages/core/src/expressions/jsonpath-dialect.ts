import { ExpressionError } from "../errors/errors.js";

/** Most recursive descents (`..`) an untrusted JSONPath may have. */
export const MAX_UNTRUSTED_DESCENTS = 2;

/**
 * Checks a JSONPath that came from an untrusted source (a model, a message) against the dialect
 * the tools accept. Filters (`[?(...)]`) and script expressions (`[(...)]`) may use `@` paths,
 * literals, comparisons, `&&`, `||`, `!`, `+ - * %` and parentheses; refused, each by name: regex
 * literals and `/` (a regex in a filter can run for minutes), function and method calls
 * (`@.s.match(...)`, `@.s.repeat(...)`), assignments, and more than two recursive descents.
 * Throws an `ExpressionError` naming what it found and where.
 */
export function checkUntrustedJsonPath(path: string): void {
  let descents = 0;
  let quote: string | undefined;
  /** Depth of parentheses inside the current filter; 0 outside filters. */
  let depth = 0;
  for (let position = 0; position < path.length; position++) {
    const character = path.charAt(position);
    if (quote !== undefined) {
      if (character === "\\") position++;
      else if (character === quote) quote = undefined;
      continue;
    }
    if (character === "'" || character === '"' || character === "`") {
      quote = character;
      continue;
    }
    if (depth === 0) {
      if (character === "." && path.charAt(position + 1) === ".") {
        descents++;
        if (descents > MAX_UNTRUSTED_DESCENTS) {
          throw refused(path, `more than ${MAX_UNTRUSTED_DESCENTS} recursive descents (..)`, position);
        }
        position++;
      } else if (
        character === "(" &&
        (path.charAt(position - 1) === "?" || path.charAt(position - 1) === "[")
      ) {
        depth = 1;
      }
      continue;
    }
    if (character === "(") {
      const before = previousSignificant(path, position);
      if (before !== undefined && /[\w$@\])]/.test(before.character)) {
        const name = /[\w$]*$/.exec(path.slice(0, before.index + 1))?.[0] ?? "";
        throw refused(path, `a function or method call (${name === "" ? "(" : `${name}(`})`, position);
      }
      depth++;
    } else if (character === ")") {
      depth--;
    } else if (character === "/") {
      throw refused(path, "a regular expression literal or division (/)", position);
    } else if (character === "=") {
      const previous = path.charAt(position - 1);
      const next = path.charAt(position + 1);
      if (next === "~") throw refused(path, "a regex match operator (=~)", position);
      if (!"=!<>".includes(previous) && next !== "=") throw refused(path, "an assignment (=)", position);
      while (path.charAt(position + 1) === "=") position++;
    }
  }
}

function previousSignificant(
  text: string,
  position: number,
): { character: string; index: number } | undefined {
  for (let index = position - 1; index >= 0; index--) {
    const character = text.charAt(index);
    if (!/\s/.test(character)) return { character, index };
  }
  return undefined;
}

function refused(path: string, what: string, index: number): ExpressionError {
  const column = index + 1;
  return new ExpressionError(
    path,
    `JSONPath "${path}": ${what} at column ${column} is not accepted from an untrusted source ` +
      "(filters may use @ paths, literals, comparisons, && || !, + - * % and parentheses)",
    column,
  );
}
