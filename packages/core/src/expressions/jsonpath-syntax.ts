/** What a scan of a JSONPath found: whether it can match several values, and the first problem if any. */
export interface JsonPathScan {
  readonly multiMatch: boolean;
  readonly problem?: { readonly detail: string; readonly position: number };
}

/**
 * Scans a JSONPath without evaluating it. Multi-match syntax is recursive descent `..`, wildcards
 * `*`, filters `[?(...)]`, slices `[a:b]`, unions `[a,b]` and type selectors `@string()`.
 * Also finds unbalanced brackets, parentheses and quotes.
 */
export function scanJsonPath(path: string): JsonPathScan {
  let multiMatch = false;
  const brackets: number[] = [];
  let parentheses = 0;
  let quote: string | undefined;
  let quoteStart = 0;
  for (let position = 0; position < path.length; position++) {
    const character = path.charAt(position);
    if (quote !== undefined) {
      if (character === "\\") position++;
      else if (character === quote) quote = undefined;
      continue;
    }
    const depth = brackets.length;
    if (character === "'" || character === '"') {
      quote = character;
      quoteStart = position;
    } else if (character === "[") {
      brackets.push(position);
      if (path[position + 1] === "?") multiMatch = true;
    } else if (character === "]") {
      if (depth === 0) return { multiMatch, problem: { detail: 'unexpected "]"', position } };
      if (path[position - 1] === "[") return { multiMatch, problem: { detail: "empty brackets", position } };
      brackets.pop();
    } else if (character === "(") {
      parentheses++;
    } else if (character === ")") {
      parentheses--;
      if (parentheses < 0) return { multiMatch, problem: { detail: 'unexpected ")"', position } };
    } else if (depth === 0) {
      if ((character === "." && path[position + 1] === ".") || character === "*" || character === "@") {
        multiMatch = true;
      }
    } else if (
      depth === 1 &&
      parentheses === 0 &&
      (character === "*" || character === ":" || character === ",")
    ) {
      multiMatch = true;
    }
  }
  if (quote !== undefined) {
    return {
      multiMatch,
      problem: { detail: `unterminated string: expected a closing ${quote}`, position: quoteStart },
    };
  }
  const openBracket = brackets.pop();
  if (openBracket !== undefined) {
    return { multiMatch, problem: { detail: 'unclosed "[": expected "]"', position: openBracket } };
  }
  if (parentheses > 0)
    return { multiMatch, problem: { detail: 'unclosed "(": expected ")"', position: path.length } };
  return { multiMatch };
}

/** Whether `path` can match several values (and so evaluates to an array). */
export function isMultiMatchPath(path: string): boolean {
  return scanJsonPath(path).multiMatch;
}
