import { ExpressionError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import { BoundedCache } from "./bounded-cache.js";
import { evaluationError } from "./expression-errors.js";
import type { CompiledExpression, Expression, ExpressionExchange } from "./expression-exchange.js";
import { checkInlineDocument, type InlineDocumentLimits, resolveInlineLimits } from "./inline-document.js";
import { checkJsonPath, evaluateJsonPath } from "./jsonpath.js";
import { toXmlInput } from "./parse-xml.js";
import { compileNode, type Evaluator } from "./simple-compiler.js";
import { parseExpressionText, parseTemplate } from "./simple-parser.js";
import { readProperty, toText } from "./simple-values.js";
import { checkXPathSyntax, evaluateXPath } from "./xpath.js";

/** A compiled predicate: true when the exchange matches. */
export type CompiledPredicate<TExchange extends ExpressionExchange = ExpressionExchange> = (
  exchange: TExchange,
) => boolean;

const CACHE_SIZE = 1000;
const templates = new BoundedCache<CompiledExpression>(CACHE_SIZE);
const wholeExpressions = new BoundedCache<CompiledExpression>(CACHE_SIZE);
const predicates = new BoundedCache<CompiledPredicate>(CACHE_SIZE);
/** Text of the expressions made by `simple()`, so a predicate position can read them as predicates. */
const simpleSources = new WeakMap<Function, string>();

function guarded(text: string, evaluator: Evaluator): CompiledExpression {
  return (exchange) => {
    try {
      return evaluator(exchange);
    } catch (error) {
      throw evaluationError(text, error);
    }
  };
}

function notAnExpression(expression: unknown): ExpressionError {
  return new ExpressionError(
    String(expression),
    `An expression must be a text or a function of the exchange, found ${describeValue(expression)}`,
  );
}

function compileTemplate(text: string): CompiledExpression {
  const parts = parseTemplate(text);
  const [first] = parts;
  if (parts.length === 1 && first !== undefined && typeof first !== "string")
    return guarded(text, compileNode(first));
  const pieces = parts.map((part) => (typeof part === "string" ? part : compileNode(part)));
  if (pieces.every((piece) => typeof piece === "string")) return constant(pieces.join(""));
  return guarded(text, (exchange) => {
    let result = "";
    for (const piece of pieces) result += typeof piece === "string" ? piece : toText(piece(exchange));
    return result;
  });
}

function compileWhole(text: string): CompiledExpression {
  let compiled = wholeExpressions.get(text);
  if (compiled === undefined) {
    compiled = guarded(text, compileNode(parseExpressionText(text)));
    wholeExpressions.set(text, compiled);
  }
  return compiled;
}

/**
 * Compiles an expression once: text without `${` is a constant; text that is exactly one `${...}`
 * yields the value with its type; other text is a template yielding a string; a function is
 * returned as is. Syntax errors throw an `ExpressionError` naming the text and the column.
 */
export function compileExpression<TResult, TExchange extends ExpressionExchange = ExpressionExchange>(
  expression: (exchange: TExchange) => TResult,
): CompiledExpression<TResult, TExchange>;
export function compileExpression<TExchange extends ExpressionExchange = ExpressionExchange>(
  expression: Expression<unknown, TExchange>,
): CompiledExpression<unknown, TExchange>;
export function compileExpression(expression: Expression): CompiledExpression {
  if (typeof expression === "function") return expression;
  if (typeof expression !== "string") throw notAnExpression(expression);
  if (!expression.includes("${")) return constant(expression);
  let compiled = templates.get(expression);
  if (compiled === undefined) {
    compiled = compileTemplate(expression);
    templates.set(expression, compiled);
  }
  return compiled;
}

/**
 * Compiles a predicate. Text is read as one boolean expression in which `${...}` groups like
 * parentheses, so `"${header.kind} == 'book'"` and `"header.kind == 'book'"` mean the same.
 * A function (or an expression made by `simple()`) is tested for truthiness.
 */
export function compilePredicate<TExchange extends ExpressionExchange = ExpressionExchange>(
  expression: Expression<unknown, TExchange>,
): CompiledPredicate<TExchange> {
  if (typeof expression === "function") {
    const source = simpleSources.get(expression);
    if (source !== undefined) return compilePredicate(source);
    return (exchange) => Boolean(expression(exchange));
  }
  if (typeof expression !== "string") throw notAnExpression(expression);
  let compiled = predicates.get(expression);
  if (compiled === undefined) {
    const evaluate = compileWhole(expression);
    compiled = (exchange) => Boolean(evaluate(exchange));
    predicates.set(expression, compiled);
  }
  return compiled;
}

/**
 * Forces simple-language reading of `text`: with `${` it is compiled like `compileExpression`,
 * without it the whole text is one expression (`simple("header.n * 2")`). Used where a predicate
 * is expected, the text is read as a predicate.
 */
export function simple(text: string): CompiledExpression {
  if (typeof text !== "string") throw notAnExpression(text);
  const compiled = text.includes("${") ? compileExpression(text) : compileWhole(text);
  simpleSources.set(compiled, text);
  return compiled;
}

/** An expression that always yields `value`. */
export function constant<TValue>(value: TValue): CompiledExpression<TValue> {
  return () => value;
}

/** An expression yielding the header `name` (undefined when absent). */
export function header(name: string): CompiledExpression {
  if (typeof name !== "string" || name === "") {
    throw new ExpressionError(String(name), `header() needs a header name, found ${describeValue(name)}`);
  }
  return (exchange) => readProperty(exchange.headers, name);
}

/** An expression yielding the body. */
export function body(): CompiledExpression {
  return (exchange) => exchange.body;
}

/**
 * An expression yielding a JSONPath over the body (see `evaluateJsonPath`); the path is checked
 * now. The body is queried on the route's thread, so it is bounded first (`limits`, default 16384
 * characters and 64 levels; see `InlineDocumentLimits`): a larger body fails the exchange.
 */
export function jsonpath(path: string, limits?: InlineDocumentLimits): CompiledExpression {
  checkJsonPath(path);
  const resolved = resolveInlineLimits(limits, `jsonpath("${path}")`);
  const query = { label: `JSONPath "${path}"`, helper: "jsonpath" } as const;
  return (exchange) => {
    checkInlineDocument(exchange.body, "json", query, resolved);
    return evaluateJsonPath(exchange.body, path);
  };
}

/**
 * An expression yielding an XPath over the body as XML (see `evaluateXPath`); the syntax is checked
 * now. The body is queried on the route's thread, so it is bounded first (`limits`, default 16384
 * characters and 64 levels; see `InlineDocumentLimits`): a larger body fails the exchange.
 */
export function xpath(expression: string, limits?: InlineDocumentLimits): CompiledExpression<string | null> {
  checkXPathSyntax(expression);
  const resolved = resolveInlineLimits(limits, `xpath("${expression}")`);
  const query = { label: `XPath "${expression}"`, helper: "xpath" } as const;
  return (exchange) => {
    const document = exchange.body;
    if (document === null || document === undefined) return null;
    const xml = toXmlInput(document, `XPath "${expression}"`);
    checkInlineDocument(xml, "xml", query, resolved);
    return evaluateXPath(xml, expression);
  };
}
