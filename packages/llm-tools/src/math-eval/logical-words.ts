const WORDS: Readonly<Record<string, string>> = { AND: "and", OR: "or", NOT: "not" };

/**
 * A string literal (kept as it is), or an upper-case logical word and whether a dot precedes it.
 * A word followed by `:` is an object key (the operators cannot stand there) and is not matched.
 */
const TOKENS = /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|(\.\s*)?\b(AND|OR|NOT)\b(?!\s*:)/g;

/**
 * Rewrites the upper-case `AND`, `OR` and `NOT` into mathjs's `and`, `or` and `not`.
 * Only whole words outside string literals are rewritten, never a property name (`x.AND`) or an
 * object key (`{AND: 1}`).
 */
export function translateLogicalWords(expression: string): string {
  if (!/AND|OR|NOT/.test(expression)) return expression;
  return expression.replace(
    TOKENS,
    (token, literal: string | undefined, dot: string | undefined, word: string) =>
      literal !== undefined || dot !== undefined ? token : (WORDS[word] ?? word),
  );
}
