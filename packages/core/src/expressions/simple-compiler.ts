import { describeValue } from "../support/describe-value.js";
import { operationError } from "./expression-errors.js";
import type { ExpressionExchange } from "./expression-exchange.js";
import type { ArithmeticOperator, ComparisonOperator, RootName, SimpleNode } from "./simple-ast.js";
import { findSimpleFunction } from "./simple-functions.js";
import {
  asNumber,
  compareValues,
  includesLoosely,
  looseEquals,
  readIndex,
  readProperty,
  textMatches,
  toText,
} from "./simple-values.js";

/** A compiled node: evaluates against one exchange. */
export type Evaluator = (exchange: ExpressionExchange) => unknown;

/** Longest text the `regex` operator will test. */
export const MAX_REGEX_INPUT_LENGTH = 100_000;

/** Turns a syntax tree into nested closures, once; evaluation then does only what the expression asks. */
export function compileNode(node: SimpleNode): Evaluator {
  switch (node.kind) {
    case "literal": {
      const value = node.value;
      return () => value;
    }
    case "root":
      return compileRoot(node.name);
    case "member":
      return compileMember(node.object, node.key);
    case "index": {
      const object = compileNode(node.object);
      const index = compileNode(node.index);
      return (exchange) => readIndex(object(exchange), index(exchange));
    }
    case "call":
      return compileCall(node.name, node.args, node.start);
    case "negate": {
      const operand = compileNode(node.operand);
      const start = node.start;
      return (exchange) => -requireNumber("-", operand(exchange), start);
    }
    case "not": {
      const operand = compileNode(node.operand);
      return (exchange) => !operand(exchange);
    }
    case "arithmetic":
      return compileArithmetic(node.operator, compileNode(node.left), compileNode(node.right), node.start);
    case "comparison":
      return compileComparison(node.operator, compileNode(node.left), compileNode(node.right), node.start);
    case "logical": {
      const left = compileNode(node.left);
      const right = compileNode(node.right);
      if (node.operator === "&&") return (exchange) => left(exchange) && right(exchange);
      if (node.operator === "||") return (exchange) => left(exchange) || right(exchange);
      return (exchange) => left(exchange) ?? right(exchange);
    }
    case "conditional": {
      const test = compileNode(node.test);
      const consequent = compileNode(node.consequent);
      const alternate = compileNode(node.alternate);
      return (exchange) => (test(exchange) ? consequent(exchange) : alternate(exchange));
    }
    case "membership":
      return compileMembership(node);
    case "text-match": {
      const left = compileNode(node.left);
      const right = compileNode(node.right);
      const { operator, negated } = node;
      return (exchange) => textMatches(operator, left(exchange), right(exchange)) !== negated;
    }
    case "regex": {
      const value = compileNode(node.value);
      const { pattern, negated, start } = node;
      return (exchange) => {
        const input = value(exchange);
        if (input === null || input === undefined) return negated;
        const text = toText(input);
        if (text.length > MAX_REGEX_INPUT_LENGTH) {
          throw operationError(
            `regex input is ${text.length} characters long; the limit is ${MAX_REGEX_INPUT_LENGTH}`,
            start,
          );
        }
        return pattern.matches(text) !== negated;
      };
    }
  }
}

function compileRoot(name: RootName): Evaluator {
  switch (name) {
    case "body":
      return (exchange) => exchange.body;
    case "headers":
      return (exchange) => exchange.headers;
    case "properties":
      return (exchange) => exchange.properties;
    case "exchangeId":
      return (exchange) => exchange.id;
    case "routeId":
      return (exchange) => exchange.routeId;
    case "fromEndpoint":
      return (exchange) => exchange.fromEndpoint;
    case "exception":
      // Inside onException steps, doTry catch blocks and fallbacks the error is cleared from the
      // exchange and kept in the "routekit.exceptionCaught" property (EXCEPTION_CAUGHT).
      return (exchange) => exchange.error ?? exchange.properties["routekit.exceptionCaught"];
    case "exchangePattern":
      return (exchange) => exchange.pattern;
  }
}

/** `header.a.b.c` as the keys ["a", "b", "c"] under the headers (or properties) root. */
function headerChain(
  objectNode: SimpleNode,
  key: string,
): { root: "headers" | "properties"; keys: string[] } | undefined {
  const keys = [key];
  let node = objectNode;
  while (node.kind === "member") {
    keys.unshift(node.key);
    node = node.object;
  }
  if (node.kind === "root" && (node.name === "headers" || node.name === "properties"))
    return { root: node.name, keys };
  return undefined;
}

/**
 * Dotted names are common in headers (`llm.tool.name`, `http.method`): `header.http.method` reads
 * the longest dotted prefix that is a header name, then walks into its value with the rest.
 */
function compileDottedLookup(root: "headers" | "properties", keys: readonly string[]): Evaluator {
  const names = keys.map((_, index) => keys.slice(0, index + 1).join("."));
  return (exchange) => {
    const map = root === "headers" ? exchange.headers : exchange.properties;
    for (let length = names.length; length >= 1; length--) {
      const name = names[length - 1] as string;
      if (!Object.hasOwn(map, name)) continue;
      let value = map[name];
      for (let index = length; index < keys.length; index++)
        value = readProperty(value, keys[index] as string);
      return value;
    }
    return undefined;
  };
}

function compileMember(objectNode: SimpleNode, key: string): Evaluator {
  const chain = objectNode.kind === "member" ? headerChain(objectNode, key) : undefined;
  if (chain !== undefined) return compileDottedLookup(chain.root, chain.keys);
  if (objectNode.kind === "root" && objectNode.name === "headers") {
    return (exchange) => readProperty(exchange.headers, key);
  }
  if (objectNode.kind === "root" && objectNode.name === "properties") {
    return (exchange) => readProperty(exchange.properties, key);
  }
  if (objectNode.kind === "root" && objectNode.name === "body") {
    return (exchange) => readProperty(exchange.body, key);
  }
  const object = compileNode(objectNode);
  return (exchange) => readProperty(object(exchange), key);
}

function compileCall(name: string, argumentNodes: readonly SimpleNode[], start: number): Evaluator {
  const definition = findSimpleFunction(name);
  if (definition === undefined) throw operationError(`unknown function "${name}"`, start);
  const args = argumentNodes.map(compileNode);
  if (definition.variadic) {
    const evaluate = definition.evaluate;
    return (exchange) => evaluate(args.map((argument) => argument(exchange)));
  }
  const evaluate = definition.evaluate;
  const [first, second, third] = args;
  if (first === undefined) return () => evaluate(undefined, undefined, undefined);
  if (second === undefined) return (exchange) => evaluate(first(exchange), undefined, undefined);
  if (third === undefined) return (exchange) => evaluate(first(exchange), second(exchange), undefined);
  return (exchange) => evaluate(first(exchange), second(exchange), third(exchange));
}

function requireNumber(operator: string, value: unknown, start: number): number {
  const number = asNumber(value);
  if (number === undefined) {
    throw operationError(`operator "${operator}" expects numbers, found ${describeValue(value)}`, start);
  }
  return number;
}

function compileArithmetic(
  operator: ArithmeticOperator,
  left: Evaluator,
  right: Evaluator,
  start: number,
): Evaluator {
  switch (operator) {
    case "+":
      return (exchange) => add(left(exchange), right(exchange), start);
    case "-":
      return (exchange) =>
        requireNumber("-", left(exchange), start) - requireNumber("-", right(exchange), start);
    case "*":
      return (exchange) =>
        requireNumber("*", left(exchange), start) * requireNumber("*", right(exchange), start);
    case "/":
      return (exchange) =>
        requireNumber("/", left(exchange), start) / requireNumber("/", right(exchange), start);
    case "%":
      return (exchange) =>
        requireNumber("%", left(exchange), start) % requireNumber("%", right(exchange), start);
  }
}

/** `+` adds numbers and concatenates when either side is text (null/undefined render as empty text). */
function add(left: unknown, right: unknown, start: number): unknown {
  if (typeof left === "number" && typeof right === "number") return left + right;
  if (typeof left === "string" || typeof right === "string") return toText(left) + toText(right);
  return requireNumber("+", left, start) + requireNumber("+", right, start);
}

function compileComparison(
  operator: ComparisonOperator,
  left: Evaluator,
  right: Evaluator,
  start: number,
): Evaluator {
  if (operator === "==") return (exchange) => looseEquals(left(exchange), right(exchange));
  if (operator === "!=") return (exchange) => !looseEquals(left(exchange), right(exchange));
  const accept: (difference: number) => boolean =
    operator === "<"
      ? (difference) => difference < 0
      : operator === "<="
        ? (difference) => difference <= 0
        : operator === ">"
          ? (difference) => difference > 0
          : (difference) => difference >= 0;
  return (exchange) => {
    const leftValue = left(exchange);
    const rightValue = right(exchange);
    const difference = compareValues(leftValue, rightValue);
    if (difference === undefined) return false;
    if (difference === null) {
      throw operationError(
        `operator "${operator}" cannot compare ${describeValue(leftValue)} with ${describeValue(rightValue)}`,
        start,
      );
    }
    return accept(difference);
  };
}

function compileMembership(node: SimpleNode & { kind: "membership" }): Evaluator {
  const value = compileNode(node.value);
  const items = node.items.map(compileNode);
  const { negated, start } = node;
  const [only] = items;
  const [onlyNode] = node.items;
  if (!node.parenthesized && onlyNode?.kind === "literal" && typeof onlyNode.value === "string") {
    const list = splitList(onlyNode.value);
    return (exchange) => includesLoosely(list, value(exchange)) !== negated;
  }
  if (items.length === 1 && only !== undefined) {
    const parenthesized = node.parenthesized;
    return (exchange) => {
      const candidate = value(exchange);
      const list = only(exchange);
      if (Array.isArray(list)) return includesLoosely(list, candidate) !== negated;
      if (parenthesized) return looseEquals(list, candidate) !== negated;
      if (typeof list === "string") return includesLoosely(splitList(list), candidate) !== negated;
      throw operationError(`IN expects a list, an array or "a,b" text, found ${describeValue(list)}`, start);
    };
  }
  return (exchange) => {
    const candidate = value(exchange);
    for (const item of items) {
      if (looseEquals(item(exchange), candidate)) return !negated;
    }
    return negated;
  };
}

function splitList(text: string): string[] {
  return text.split(",").map((item) => item.trim());
}
