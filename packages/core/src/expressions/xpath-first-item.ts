import { RoutekitError } from "../errors/errors.js";
import { tokenizeXPath, type XPathToken } from "./xpath-tokens.js";

/** XPath 1.0 functions whose arguments convert a node-set by taking its first node. */
const FIRST_ITEM_FUNCTIONS = new Set([
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
  "number",
  "floor",
  "ceiling",
  "round",
  "lang",
  "local-name",
  "namespace-uri",
  "name",
]);
const STEP_STARTS = new Set(["name", "node-type", "axis"]);

interface Span {
  readonly start: number;
  readonly end: number;
  /** A literal or number: a single value already, never wrapped. */
  readonly single: boolean;
}

/** Raised inside the rewriter when the text is not XPath 1.0; never leaves this file. */
class NotXPath1 extends RoutekitError {
  constructor() {
    super("EXPRESSION_INVALID", "not an XPath 1.0 expression");
  }
}

/**
 * XPath 1.0 converts a node-set to a string or number by taking its first node; XPath 3.1 (what
 * fontoxpath runs) raises XPTY0004 instead. This rewrites the places where 1.0 makes that
 * conversion — arguments of the string and number functions, operands of arithmetic — into
 * `(operand)[1]`, which means the same thing in 3.1. Returns `undefined` when the text is not
 * XPath 1.0 or has no such place.
 */
export function rewriteForFirstItem(expression: string): string | undefined {
  const tokens = tokenizeXPath(expression);
  if (tokens === undefined) return undefined;
  const rewriter = new FirstItemRewriter(tokens);
  try {
    rewriter.parseExpression();
    rewriter.expectEnd();
  } catch (error) {
    if (error instanceof NotXPath1) return undefined;
    throw error;
  }
  return rewriter.apply(expression);
}

/** Whether an expression parses as XPath 1.0 (the grammar this rewriter knows). */
export function parsesAsXPath1(expression: string): boolean {
  const tokens = tokenizeXPath(expression);
  if (tokens === undefined) return false;
  const parser = new FirstItemRewriter(tokens);
  try {
    parser.parseExpression();
    parser.expectEnd();
    return true;
  } catch (error) {
    if (error instanceof NotXPath1) return false;
    throw error;
  }
}

class FirstItemRewriter {
  readonly #tokens: readonly XPathToken[];
  #index = 0;
  readonly #insertions: { position: number; text: string; order: number }[] = [];

  constructor(tokens: readonly XPathToken[]) {
    this.#tokens = tokens;
  }

  apply(expression: string): string | undefined {
    if (this.#insertions.length === 0) return undefined;
    const sorted = [...this.#insertions].sort((a, b) => a.position - b.position || a.order - b.order);
    let result = "";
    let position = 0;
    for (const insertion of sorted) {
      result += expression.slice(position, insertion.position) + insertion.text;
      position = insertion.position;
    }
    return result + expression.slice(position);
  }

  expectEnd(): void {
    if (this.#peek().type !== "end") throw new NotXPath1();
  }

  #peek(): XPathToken {
    const token = this.#tokens[Math.min(this.#index, this.#tokens.length - 1)];
    if (token === undefined) throw new NotXPath1();
    return token;
  }

  #next(): XPathToken {
    const token = this.#peek();
    if (token.type !== "end") this.#index++;
    return token;
  }

  #is(type: XPathToken["type"], ...texts: string[]): boolean {
    const token = this.#peek();
    return token.type === type && (texts.length === 0 || texts.includes(token.text));
  }

  #expect(type: XPathToken["type"], text: string): XPathToken {
    if (!this.#is(type, text)) throw new NotXPath1();
    return this.#next();
  }

  #wrap(span: Span): void {
    if (span.single) return;
    this.#insertions.push({ position: span.start, text: "(", order: 1 });
    this.#insertions.push({ position: span.end, text: ")[1]", order: 0 });
  }

  parseExpression(): Span {
    return this.#binary(["or"], () => this.#binary(["and"], () => this.#equality()));
  }

  #equality(): Span {
    return this.#binary(["=", "!="], () => this.#binary(["<", "<=", ">", ">="], () => this.#additive()));
  }

  #binary(operators: readonly string[], operand: () => Span, wrapOperands = false): Span {
    const first = operand();
    const operands = [first];
    while (this.#is("operator", ...operators)) {
      this.#next();
      operands.push(operand());
    }
    if (operands.length === 1) return first;
    if (wrapOperands) for (const span of operands) this.#wrap(span);
    const last = operands[operands.length - 1] ?? first;
    return { start: first.start, end: last.end, single: false };
  }

  #additive(): Span {
    return this.#binary(["+", "-"], () => this.#binary(["*", "div", "mod"], () => this.#unary(), true), true);
  }

  #unary(): Span {
    if (!this.#is("operator", "-")) return this.#binary(["|"], () => this.#path());
    const minus = this.#next();
    const operand = this.#unary();
    this.#wrap(operand);
    return { start: minus.start, end: operand.end, single: false };
  }

  #path(): Span {
    const token = this.#peek();
    if (this.#is("operator", "/", "//")) {
      this.#next();
      if (token.text === "/" && !this.#startsStep())
        return { start: token.start, end: token.end, single: false };
      const rest = this.#relativePath();
      return { start: token.start, end: rest.end, single: false };
    }
    if (
      this.#is("variable") ||
      this.#is("punctuation", "(") ||
      this.#is("literal") ||
      this.#is("number") ||
      this.#is("function")
    ) {
      const filter = this.#filter();
      if (!this.#is("operator", "/", "//")) return filter;
      this.#next();
      const rest = this.#relativePath();
      return { start: filter.start, end: rest.end, single: false };
    }
    return this.#relativePath();
  }

  #startsStep(): boolean {
    const token = this.#peek();
    return (
      STEP_STARTS.has(token.type) || (token.type === "punctuation" && ["@", ".", ".."].includes(token.text))
    );
  }

  #relativePath(): Span {
    const first = this.#step();
    let end = first.end;
    while (this.#is("operator", "/", "//")) {
      this.#next();
      end = this.#step().end;
    }
    return { start: first.start, end, single: false };
  }

  #step(): Span {
    const first = this.#peek();
    if (this.#is("punctuation", ".", "..")) {
      this.#next();
      return { start: first.start, end: first.end, single: false };
    }
    if (this.#is("axis")) {
      this.#next();
      this.#expect("punctuation", "::");
    } else if (this.#is("punctuation", "@")) {
      this.#next();
    }
    let end: number;
    if (this.#is("name")) {
      end = this.#next().end;
    } else if (this.#is("node-type")) {
      this.#next();
      this.#expect("punctuation", "(");
      if (this.#is("literal")) this.#next();
      end = this.#expect("punctuation", ")").end;
    } else {
      throw new NotXPath1();
    }
    return { start: first.start, end: this.#predicates(end), single: false };
  }

  #predicates(end: number): number {
    let last = end;
    while (this.#is("punctuation", "[")) {
      this.#next();
      this.parseExpression();
      last = this.#expect("punctuation", "]").end;
    }
    return last;
  }

  #filter(): Span {
    const primary = this.#primary();
    const end = this.#predicates(primary.end);
    return end === primary.end ? primary : { start: primary.start, end, single: false };
  }

  #primary(): Span {
    const token = this.#next();
    if (token.type === "literal" || token.type === "number")
      return { start: token.start, end: token.end, single: true };
    if (token.type === "variable") return { start: token.start, end: token.end, single: false };
    if (token.type === "punctuation" && token.text === "(") {
      this.parseExpression();
      const close = this.#expect("punctuation", ")");
      return { start: token.start, end: close.end, single: false };
    }
    if (token.type !== "function") throw new NotXPath1();
    this.#expect("punctuation", "(");
    const args: Span[] = [];
    if (!this.#is("punctuation", ")")) {
      args.push(this.parseExpression());
      while (this.#is("punctuation", ",")) {
        this.#next();
        args.push(this.parseExpression());
      }
    }
    const close = this.#expect("punctuation", ")");
    const localName = token.text.startsWith("fn:") ? token.text.slice(3) : token.text;
    if (FIRST_ITEM_FUNCTIONS.has(localName)) for (const span of args) this.#wrap(span);
    return { start: token.start, end: close.end, single: false };
  }
}
