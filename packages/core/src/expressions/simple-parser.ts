import type { RE2JS } from "re2js";
import { lazyModule } from "../support/lazy-module.js";
import { syntaxError } from "./expression-errors.js";
import type { ComparisonOperator, SimpleNode, TemplatePart, TextMatchOperator } from "./simple-ast.js";
import { type SimpleToken, tokenize } from "./simple-lexer.js";
import { type Parsers, parsePostfix } from "./simple-primary.js";
import { isSymbol, isWord, TokenStream } from "./simple-token-stream.js";

/** Longest pattern accepted by the `regex` operator. */
export const MAX_REGEX_PATTERN_LENGTH = 1000;

/** re2js, loaded when the first `regex` pattern is compiled. */
const re2js = lazyModule<typeof import("re2js")>("re2js", import.meta.url);
const RELATIONAL = new Set(["<", "<=", ">", ">="]);
const TEXT_MATCHES: Readonly<Record<string, TextMatchOperator>> = {
  contains: "contains",
  startswith: "startsWith",
  endswith: "endsWith",
};
const WORD_OPERATORS = new Set(["in", "contains", "startswith", "endswith", "regex"]);

/** Parses a template: literal text with `${...}` parts (`\${` is a literal `${`). */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf("${", position);
    if (open === -1) {
      literal += text.slice(position);
      break;
    }
    if (open > 0 && text[open - 1] === "\\") {
      literal += `${text.slice(position, open - 1)}\${`;
      position = open + 2;
      continue;
    }
    literal += text.slice(position, open);
    if (literal !== "") parts.push(literal);
    literal = "";
    const tokens = tokenize(text, open, true);
    parts.push(new SimpleParser(text, tokens).parseAll());
    position = tokens[tokens.length - 1]?.end ?? text.length;
  }
  if (literal !== "") parts.push(literal);
  return parts;
}

/** Parses text that is one whole expression, where `${...}` groups like parentheses. */
export function parseExpressionText(text: string): SimpleNode {
  return new SimpleParser(text, tokenize(text, 0, false)).parseAll();
}

class SimpleParser {
  readonly #stream: TokenStream;
  readonly #parsers: Parsers = {
    expression: () => this.#parseConditional(),
    unary: () => this.#parseUnary(),
  };

  constructor(text: string, tokens: readonly SimpleToken[]) {
    this.#stream = new TokenStream(text, tokens);
  }

  parseAll(): SimpleNode {
    const node = this.#parseConditional();
    const token = this.#stream.peek();
    if (token.kind !== "end")
      throw this.#stream.error("expected an operator or the end of the expression", token);
    return node;
  }

  #parseConditional(): SimpleNode {
    const test = this.#parseNullish();
    const question = this.#stream.peek();
    if (!isSymbol(question, "?")) return test;
    this.#stream.next();
    const consequent = this.#parseConditional();
    this.#stream.expectSymbol(":", 'expected ":" of the "?:" operator');
    const alternate = this.#parseConditional();
    return { kind: "conditional", test, consequent, alternate, start: question.start };
  }

  #parseNullish(): SimpleNode {
    let left = this.#parseOr();
    while (isSymbol(this.#stream.peek(), "??")) {
      const operator = this.#stream.next();
      left = { kind: "logical", operator: "??", left, right: this.#parseOr(), start: operator.start };
    }
    return left;
  }

  #parseOr(): SimpleNode {
    let left = this.#parseAnd();
    while (isSymbol(this.#stream.peek(), "||") || isWord(this.#stream.peek(), "or")) {
      const operator = this.#stream.next();
      left = { kind: "logical", operator: "||", left, right: this.#parseAnd(), start: operator.start };
    }
    return left;
  }

  #parseAnd(): SimpleNode {
    let left = this.#parseNot();
    while (isSymbol(this.#stream.peek(), "&&") || isWord(this.#stream.peek(), "and")) {
      const operator = this.#stream.next();
      left = { kind: "logical", operator: "&&", left, right: this.#parseNot(), start: operator.start };
    }
    return left;
  }

  /** Word NOT binds loosely, as in SQL: `NOT a == b` is `NOT (a == b)`. `!` binds tightly. */
  #parseNot(): SimpleNode {
    const token = this.#stream.peek();
    if (!isWord(token, "not")) return this.#parseEquality();
    this.#stream.next();
    return { kind: "not", operand: this.#parseNot(), start: token.start };
  }

  #parseEquality(): SimpleNode {
    let left = this.#parseRelational();
    while (isSymbol(this.#stream.peek(), "==") || isSymbol(this.#stream.peek(), "!=")) {
      const operator = this.#stream.next();
      const right = this.#parseRelational();
      left = {
        kind: "comparison",
        operator: operator.value as ComparisonOperator,
        left,
        right,
        start: operator.start,
      };
    }
    return left;
  }

  #parseRelational(): SimpleNode {
    let left = this.#parseAdditive();
    for (;;) {
      const token = this.#stream.peek();
      if (token.kind === "punctuation" && RELATIONAL.has(token.value)) {
        this.#stream.next();
        const right = this.#parseAdditive();
        left = {
          kind: "comparison",
          operator: token.value as ComparisonOperator,
          left,
          right,
          start: token.start,
        };
        continue;
      }
      const following = this.#stream.peek(1);
      const negated =
        isWord(token, "not") &&
        following.kind === "identifier" &&
        WORD_OPERATORS.has(following.value.toLowerCase());
      const operatorToken = negated ? this.#stream.peek(1) : token;
      const word = operatorToken.kind === "identifier" ? operatorToken.value.toLowerCase() : "";
      if (!WORD_OPERATORS.has(word)) return left;
      this.#stream.next();
      if (negated) this.#stream.next();
      left = this.#parseWordOperator(word, left, negated, token.start);
    }
  }

  #parseWordOperator(word: string, left: SimpleNode, negated: boolean, start: number): SimpleNode {
    if (word === "in") return this.#parseMembership(left, negated, start);
    if (word === "regex") {
      const patternToken = this.#stream.next();
      if (patternToken.kind !== "string") {
        throw this.#stream.error("regex expects a string literal pattern", patternToken);
      }
      return { kind: "regex", value: left, pattern: this.#compilePattern(patternToken), negated, start };
    }
    const operator = TEXT_MATCHES[word] ?? "contains";
    return { kind: "text-match", operator, left, right: this.#parseAdditive(), negated, start };
  }

  /**
   * Compiles a `regex` pattern with re2js, which runs in time linear in the text (a message body
   * cannot make it backtrack); backreferences and lookahead are refused for that reason.
   */
  #compilePattern(token: SimpleToken & { kind: "string" }): RE2JS {
    if (token.value.length > MAX_REGEX_PATTERN_LENGTH) {
      throw this.#stream.error(`regex pattern is longer than ${MAX_REGEX_PATTERN_LENGTH} characters`, token);
    }
    try {
      return re2js().RE2JS.compile(token.value);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw syntaxError(
        this.#stream.text,
        `invalid regex pattern (${reason}; the regex operator runs on the linear-time RE2 engine, which has no backreferences or lookaround)`,
        token.start,
      );
    }
  }

  #parseMembership(value: SimpleNode, negated: boolean, start: number): SimpleNode {
    if (!isSymbol(this.#stream.peek(), "(")) {
      return {
        kind: "membership",
        value,
        items: [this.#parseAdditive()],
        parenthesized: false,
        negated,
        start,
      };
    }
    this.#stream.next();
    const items: SimpleNode[] = [this.#parseConditional()];
    while (isSymbol(this.#stream.peek(), ",")) {
      this.#stream.next();
      items.push(this.#parseConditional());
    }
    this.#stream.expectSymbol(")", 'expected "," or ")" in the IN list');
    return { kind: "membership", value, items, parenthesized: true, negated, start };
  }

  #parseAdditive(): SimpleNode {
    let left = this.#parseMultiplicative();
    while (isSymbol(this.#stream.peek(), "+") || isSymbol(this.#stream.peek(), "-")) {
      const operator = this.#stream.next();
      const right = this.#parseMultiplicative();
      left = {
        kind: "arithmetic",
        operator: operator.value === "+" ? "+" : "-",
        left,
        right,
        start: operator.start,
      };
    }
    return left;
  }

  #parseMultiplicative(): SimpleNode {
    let left = this.#parseUnary();
    for (;;) {
      const operator = this.#stream.peek();
      if (!(isSymbol(operator, "*") || isSymbol(operator, "/") || isSymbol(operator, "%"))) return left;
      this.#stream.next();
      const right = this.#parseUnary();
      const symbol = operator.value === "*" ? "*" : operator.value === "/" ? "/" : "%";
      left = { kind: "arithmetic", operator: symbol, left, right, start: operator.start };
    }
  }

  #parseUnary(): SimpleNode {
    const token = this.#stream.peek();
    if (isSymbol(token, "-")) {
      this.#stream.next();
      const operand = this.#parseUnary();
      if (operand.kind === "literal" && typeof operand.value === "number") {
        return { kind: "literal", value: -operand.value, start: token.start };
      }
      return { kind: "negate", operand, start: token.start };
    }
    if (isSymbol(token, "!")) {
      this.#stream.next();
      return { kind: "not", operand: this.#parseUnary(), start: token.start };
    }
    return this.#parsePostfix();
  }

  #parsePostfix(): SimpleNode {
    return parsePostfix(this.#stream, this.#parsers);
  }
}
