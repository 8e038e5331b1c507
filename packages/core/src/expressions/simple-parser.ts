import { syntaxError } from "./expression-errors.js";
import type {
  ComparisonOperator,
  RootName,
  SimpleNode,
  TemplatePart,
  TextMatchOperator,
} from "./simple-ast.js";
import { findSimpleFunction, SIMPLE_FUNCTION_NAMES } from "./simple-functions.js";
import { type SimpleToken, tokenize } from "./simple-lexer.js";

/** Keys that would lead into prototypes; no expression can read them. */
export const BLOCKED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Longest pattern accepted by the `regex` operator. */
export const MAX_REGEX_PATTERN_LENGTH = 1000;

const ROOTS: Readonly<Record<string, RootName>> = {
  body: "body",
  header: "headers",
  headers: "headers",
  property: "properties",
  properties: "properties",
  exchangeProperty: "properties",
  exchangeId: "exchangeId",
  routeId: "routeId",
  fromEndpoint: "fromEndpoint",
  exception: "exception",
  exchangePattern: "exchangePattern",
};
const LITERALS: Readonly<Record<string, unknown>> = { true: true, false: false, null: null };
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

function isWord(token: SimpleToken, word: string): boolean {
  return token.kind === "identifier" && token.value.toLowerCase() === word;
}

function isSymbol(token: SimpleToken, symbol: string): boolean {
  return token.kind === "punctuation" && token.value === symbol;
}

function describeToken(token: SimpleToken): string {
  if (token.kind === "end") return "the end of the expression";
  if (token.kind === "string") return "a string";
  if (token.kind === "number") return `number ${token.value}`;
  return JSON.stringify(token.value);
}

class SimpleParser {
  readonly #text: string;
  readonly #tokens: readonly SimpleToken[];
  #index = 0;

  constructor(text: string, tokens: readonly SimpleToken[]) {
    this.#text = text;
    this.#tokens = tokens;
  }

  parseAll(): SimpleNode {
    const node = this.#parseConditional();
    const token = this.#peek();
    if (token.kind !== "end") throw this.#error("expected an operator or the end of the expression", token);
    return node;
  }

  #peek(offset = 0): SimpleToken {
    const last = this.#tokens.length - 1;
    const token = this.#tokens[Math.min(this.#index + offset, last)];
    if (token === undefined) throw new Error("simple parser: no tokens");
    return token;
  }

  #next(): SimpleToken {
    const token = this.#peek();
    if (this.#index < this.#tokens.length - 1) this.#index++;
    return token;
  }

  #expectSymbol(symbol: string, detail: string): SimpleToken {
    const token = this.#peek();
    if (!isSymbol(token, symbol)) throw this.#error(detail, token);
    return this.#next();
  }

  #error(detail: string, token: SimpleToken) {
    return syntaxError(this.#text, detail, token.start, describeToken(token));
  }

  #parseConditional(): SimpleNode {
    const test = this.#parseNullish();
    const question = this.#peek();
    if (!isSymbol(question, "?")) return test;
    this.#next();
    const consequent = this.#parseConditional();
    this.#expectSymbol(":", 'expected ":" of the "?:" operator');
    const alternate = this.#parseConditional();
    return { kind: "conditional", test, consequent, alternate, start: question.start };
  }

  #parseNullish(): SimpleNode {
    let left = this.#parseOr();
    while (isSymbol(this.#peek(), "??")) {
      const operator = this.#next();
      left = { kind: "logical", operator: "??", left, right: this.#parseOr(), start: operator.start };
    }
    return left;
  }

  #parseOr(): SimpleNode {
    let left = this.#parseAnd();
    while (isSymbol(this.#peek(), "||") || isWord(this.#peek(), "or")) {
      const operator = this.#next();
      left = { kind: "logical", operator: "||", left, right: this.#parseAnd(), start: operator.start };
    }
    return left;
  }

  #parseAnd(): SimpleNode {
    let left = this.#parseNot();
    while (isSymbol(this.#peek(), "&&") || isWord(this.#peek(), "and")) {
      const operator = this.#next();
      left = { kind: "logical", operator: "&&", left, right: this.#parseNot(), start: operator.start };
    }
    return left;
  }

  /** Word NOT binds loosely, as in SQL: `NOT a == b` is `NOT (a == b)`. `!` binds tightly. */
  #parseNot(): SimpleNode {
    const token = this.#peek();
    if (!isWord(token, "not")) return this.#parseEquality();
    this.#next();
    return { kind: "not", operand: this.#parseNot(), start: token.start };
  }

  #parseEquality(): SimpleNode {
    let left = this.#parseRelational();
    while (isSymbol(this.#peek(), "==") || isSymbol(this.#peek(), "!=")) {
      const operator = this.#next();
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
      const token = this.#peek();
      if (token.kind === "punctuation" && RELATIONAL.has(token.value)) {
        this.#next();
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
      const following = this.#peek(1);
      const negated =
        isWord(token, "not") &&
        following.kind === "identifier" &&
        WORD_OPERATORS.has(following.value.toLowerCase());
      const operatorToken = negated ? this.#peek(1) : token;
      const word = operatorToken.kind === "identifier" ? operatorToken.value.toLowerCase() : "";
      if (!WORD_OPERATORS.has(word)) return left;
      this.#next();
      if (negated) this.#next();
      left = this.#parseWordOperator(word, left, negated, token.start);
    }
  }

  #parseWordOperator(word: string, left: SimpleNode, negated: boolean, start: number): SimpleNode {
    if (word === "in") return this.#parseMembership(left, negated, start);
    if (word === "regex") {
      const patternToken = this.#next();
      if (patternToken.kind !== "string") {
        throw this.#error("regex expects a string literal pattern", patternToken);
      }
      return { kind: "regex", value: left, pattern: this.#compilePattern(patternToken), negated, start };
    }
    const operator = TEXT_MATCHES[word] ?? "contains";
    return { kind: "text-match", operator, left, right: this.#parseAdditive(), negated, start };
  }

  #compilePattern(token: SimpleToken & { kind: "string" }): RegExp {
    if (token.value.length > MAX_REGEX_PATTERN_LENGTH) {
      throw this.#error(`regex pattern is longer than ${MAX_REGEX_PATTERN_LENGTH} characters`, token);
    }
    try {
      return new RegExp(`^(?:${token.value})$`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw syntaxError(this.#text, `invalid regex pattern (${reason})`, token.start);
    }
  }

  #parseMembership(value: SimpleNode, negated: boolean, start: number): SimpleNode {
    if (!isSymbol(this.#peek(), "(")) {
      return {
        kind: "membership",
        value,
        items: [this.#parseAdditive()],
        parenthesized: false,
        negated,
        start,
      };
    }
    this.#next();
    const items: SimpleNode[] = [this.#parseConditional()];
    while (isSymbol(this.#peek(), ",")) {
      this.#next();
      items.push(this.#parseConditional());
    }
    this.#expectSymbol(")", 'expected "," or ")" in the IN list');
    return { kind: "membership", value, items, parenthesized: true, negated, start };
  }

  #parseAdditive(): SimpleNode {
    let left = this.#parseMultiplicative();
    while (isSymbol(this.#peek(), "+") || isSymbol(this.#peek(), "-")) {
      const operator = this.#next();
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
      const operator = this.#peek();
      if (!(isSymbol(operator, "*") || isSymbol(operator, "/") || isSymbol(operator, "%"))) return left;
      this.#next();
      const right = this.#parseUnary();
      const symbol = operator.value === "*" ? "*" : operator.value === "/" ? "/" : "%";
      left = { kind: "arithmetic", operator: symbol, left, right, start: operator.start };
    }
  }

  #parseUnary(): SimpleNode {
    const token = this.#peek();
    if (isSymbol(token, "-")) {
      this.#next();
      const operand = this.#parseUnary();
      if (operand.kind === "literal" && typeof operand.value === "number") {
        return { kind: "literal", value: -operand.value, start: token.start };
      }
      return { kind: "negate", operand, start: token.start };
    }
    if (isSymbol(token, "!")) {
      this.#next();
      return { kind: "not", operand: this.#parseUnary(), start: token.start };
    }
    return this.#parsePostfix();
  }

  #parsePostfix(): SimpleNode {
    let node = this.#parsePrimary();
    let namespaceRoot = node.kind === "root" && (node.name === "headers" || node.name === "properties");
    for (;;) {
      const token = this.#peek();
      if (isSymbol(token, ".")) {
        this.#next();
        node = this.#parseMemberOrMethod(node, namespaceRoot);
      } else if (isSymbol(token, "[")) {
        this.#next();
        const index = this.#parseConditional();
        this.#expectSymbol("]", 'expected "]"');
        node = this.#indexNode(node, index);
      } else if (isSymbol(token, "(")) {
        throw this.#error("only functions can be called; this value is not a function name", token);
      } else {
        return node;
      }
      namespaceRoot = false;
    }
  }

  #parseMemberOrMethod(object: SimpleNode, namespaceRoot: boolean): SimpleNode {
    const nameToken = this.#next();
    if (nameToken.kind !== "identifier" && nameToken.kind !== "number") {
      throw this.#error('expected a name after "."', nameToken);
    }
    let key = this.#text.slice(nameToken.start, nameToken.end);
    if (namespaceRoot) key += this.#readDashedNameRest(nameToken.end);
    if (BLOCKED_KEYS.has(key)) throw this.#error(`access to "${key}" is not allowed`, nameToken);
    if (nameToken.kind === "identifier" && isSymbol(this.#peek(), "(") && !namespaceRoot) {
      return this.#parseCall(nameToken, object);
    }
    return { kind: "member", object, key, start: nameToken.start };
  }

  /** Header and property names may contain dashes when written without spaces: `header.Content-Type`. */
  #readDashedNameRest(end: number): string {
    let rest = "";
    let previousEnd = end;
    for (;;) {
      const dash = this.#peek();
      const part = this.#peek(1);
      const adjacent = dash.start === previousEnd && part.start === dash.end;
      if (!isSymbol(dash, "-") || !adjacent || (part.kind !== "identifier" && part.kind !== "number"))
        return rest;
      this.#next();
      this.#next();
      rest += `-${this.#text.slice(part.start, part.end)}`;
      previousEnd = part.end;
    }
  }

  #indexNode(object: SimpleNode, index: SimpleNode): SimpleNode {
    if (index.kind === "literal" && typeof index.value === "string") {
      if (BLOCKED_KEYS.has(index.value)) {
        throw syntaxError(this.#text, `access to "${index.value}" is not allowed`, index.start);
      }
      return { kind: "member", object, key: index.value, start: index.start };
    }
    return { kind: "index", object, index, start: index.start };
  }

  #parsePrimary(): SimpleNode {
    const token = this.#next();
    switch (token.kind) {
      case "number":
      case "string":
        return { kind: "literal", value: token.value, start: token.start };
      case "identifier":
        return this.#parseName(token);
      case "punctuation":
        if (token.value === "(") {
          const inner = this.#parseConditional();
          this.#expectSymbol(")", 'expected an operator or ")"');
          return inner;
        }
        if (token.value === "${") {
          const inner = this.#parseConditional();
          this.#expectSymbol("}", 'expected an operator or "}"');
          return inner;
        }
        throw this.#error("expected a value", token);
      default:
        throw this.#error("expected a value", token);
    }
  }

  #parseName(token: SimpleToken): SimpleNode {
    const name = token.value as string;
    if (name.toLowerCase() === "not") return { kind: "not", operand: this.#parseUnary(), start: token.start };
    if (isSymbol(this.#peek(), "(")) return this.#parseCall(token, undefined);
    if (Object.hasOwn(LITERALS, name)) return { kind: "literal", value: LITERALS[name], start: token.start };
    const root = Object.hasOwn(ROOTS, name) ? ROOTS[name] : undefined;
    if (root !== undefined) return { kind: "root", name: root, start: token.start };
    throw syntaxError(
      this.#text,
      `unknown name "${name}" (expected body, header.NAME, property.NAME, exchangeId, routeId, fromEndpoint, ` +
        "exception, exchangePattern, a function call or a literal)",
      token.start,
    );
  }

  /** Parses `name(args)`; with a receiver (`value.name(args)`) the receiver is the first argument. */
  #parseCall(nameToken: SimpleToken, receiver: SimpleNode | undefined): SimpleNode {
    const name = nameToken.value as string;
    const definition = findSimpleFunction(name);
    if (definition === undefined) {
      throw syntaxError(
        this.#text,
        `unknown function "${name}" (known: ${SIMPLE_FUNCTION_NAMES.join(", ")})`,
        nameToken.start,
      );
    }
    this.#expectSymbol("(", 'expected "("');
    const args: SimpleNode[] = [];
    if (!isSymbol(this.#peek(), ")")) {
      args.push(this.#parseConditional());
      while (isSymbol(this.#peek(), ",")) {
        this.#next();
        args.push(this.#parseConditional());
      }
    }
    this.#expectSymbol(")", `expected "," or ")" in the arguments of ${name}()`);
    if (receiver !== undefined) {
      if (definition.documentLast) args.push(receiver);
      else args.unshift(receiver);
    }
    if (args.length < definition.minArguments || args.length > definition.maxArguments) {
      const expected =
        definition.minArguments === definition.maxArguments
          ? `${definition.minArguments}`
          : definition.maxArguments === Number.POSITIVE_INFINITY
            ? `at least ${definition.minArguments}`
            : `${definition.minArguments} to ${definition.maxArguments}`;
      throw syntaxError(
        this.#text,
        `function ${name}() expects ${expected} argument(s), got ${args.length}`,
        nameToken.start,
      );
    }
    if (definition.documentLast && args.length === 1)
      args.push({ kind: "root", name: "body", start: nameToken.start });
    return { kind: "call", name, args, start: nameToken.start };
  }
}
