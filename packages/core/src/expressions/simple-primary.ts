import { syntaxError } from "./expression-errors.js";
import type { RootName, SimpleNode } from "./simple-ast.js";
import { findSimpleFunction, SIMPLE_FUNCTION_NAMES } from "./simple-functions.js";
import type { SimpleToken } from "./simple-lexer.js";
import { isSymbol, type TokenStream } from "./simple-token-stream.js";
import { BLOCKED_KEYS } from "./simple-values.js";

/** The lower-precedence parsers that values recurse into (arguments, indexes, parentheses). */
export interface Parsers {
  readonly expression: () => SimpleNode;
  readonly unary: () => SimpleNode;
}

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

/**
 * Parses a value and what follows it: `.name`, `[index]` and `.method(args)`. Values are
 * literals, exchange fields (body, header.NAME, ...), function calls and `(...)` / `${...}` groups.
 */
export function parsePostfix(stream: TokenStream, parsers: Parsers): SimpleNode {
  let node = parsePrimary(stream, parsers);
  let namespaceRoot = node.kind === "root" && (node.name === "headers" || node.name === "properties");
  for (;;) {
    const token = stream.peek();
    if (isSymbol(token, ".")) {
      stream.next();
      node = parseMemberOrMethod(stream, parsers, node, namespaceRoot);
    } else if (isSymbol(token, "[")) {
      stream.next();
      const index = parsers.expression();
      stream.expectSymbol("]", 'expected "]"');
      node = indexNode(stream, node, index);
    } else if (isSymbol(token, "(")) {
      throw stream.error("only functions can be called; this value is not a function name", token);
    } else {
      return node;
    }
    namespaceRoot = false;
  }
}

function parseMemberOrMethod(
  stream: TokenStream,
  parsers: Parsers,
  object: SimpleNode,
  namespaceRoot: boolean,
): SimpleNode {
  const nameToken = stream.next();
  if (nameToken.kind !== "identifier" && nameToken.kind !== "number") {
    throw stream.error('expected a name after "."', nameToken);
  }
  let key = stream.text.slice(nameToken.start, nameToken.end);
  if (namespaceRoot) key += readDashedNameRest(stream, nameToken.end);
  if (BLOCKED_KEYS.has(key)) throw stream.error(`access to "${key}" is not allowed`, nameToken);
  if (nameToken.kind === "identifier" && isSymbol(stream.peek(), "(") && !namespaceRoot) {
    return parseCall(stream, parsers, nameToken, object);
  }
  return { kind: "member", object, key, start: nameToken.start };
}

/** Header and property names may contain dashes when written without spaces: `header.Content-Type`. */
function readDashedNameRest(stream: TokenStream, end: number): string {
  let rest = "";
  let previousEnd = end;
  for (;;) {
    const dash = stream.peek();
    const part = stream.peek(1);
    const adjacent = dash.start === previousEnd && part.start === dash.end;
    if (!isSymbol(dash, "-") || !adjacent || (part.kind !== "identifier" && part.kind !== "number"))
      return rest;
    stream.next();
    stream.next();
    rest += `-${stream.text.slice(part.start, part.end)}`;
    previousEnd = part.end;
  }
}

function indexNode(stream: TokenStream, object: SimpleNode, index: SimpleNode): SimpleNode {
  if (index.kind === "literal" && typeof index.value === "string") {
    if (BLOCKED_KEYS.has(index.value)) {
      throw syntaxError(stream.text, `access to "${index.value}" is not allowed`, index.start);
    }
    return { kind: "member", object, key: index.value, start: index.start };
  }
  return { kind: "index", object, index, start: index.start };
}

function parsePrimary(stream: TokenStream, parsers: Parsers): SimpleNode {
  const token = stream.next();
  switch (token.kind) {
    case "number":
    case "string":
      return { kind: "literal", value: token.value, start: token.start };
    case "identifier":
      return parseName(stream, parsers, token);
    case "punctuation":
      if (token.value === "(") {
        const inner = parsers.expression();
        stream.expectSymbol(")", 'expected an operator or ")"');
        return inner;
      }
      if (token.value === "${") {
        const inner = parsers.expression();
        stream.expectSymbol("}", 'expected an operator or "}"');
        return inner;
      }
      throw stream.error("expected a value", token);
    default:
      throw stream.error("expected a value", token);
  }
}

function parseName(stream: TokenStream, parsers: Parsers, token: SimpleToken): SimpleNode {
  const name = token.value as string;
  if (name.toLowerCase() === "not") return { kind: "not", operand: parsers.unary(), start: token.start };
  if (isSymbol(stream.peek(), "(")) return parseCall(stream, parsers, token, undefined);
  if (Object.hasOwn(LITERALS, name)) return { kind: "literal", value: LITERALS[name], start: token.start };
  const root = Object.hasOwn(ROOTS, name) ? ROOTS[name] : undefined;
  if (root !== undefined) return { kind: "root", name: root, start: token.start };
  throw syntaxError(
    stream.text,
    `unknown name "${name}" (expected body, header.NAME, property.NAME, exchangeId, routeId, fromEndpoint, ` +
      "exception, exchangePattern, a function call or a literal)",
    token.start,
  );
}

/** Parses `name(args)`; with a receiver (`value.name(args)`) the receiver is the first argument. */
function parseCall(
  stream: TokenStream,
  parsers: Parsers,
  nameToken: SimpleToken,
  receiver: SimpleNode | undefined,
): SimpleNode {
  const name = nameToken.value as string;
  const definition = findSimpleFunction(name);
  if (definition === undefined) {
    throw syntaxError(
      stream.text,
      `unknown function "${name}" (known: ${SIMPLE_FUNCTION_NAMES.join(", ")})`,
      nameToken.start,
    );
  }
  stream.expectSymbol("(", 'expected "("');
  const args: SimpleNode[] = [];
  if (!isSymbol(stream.peek(), ")")) {
    args.push(parsers.expression());
    while (isSymbol(stream.peek(), ",")) {
      stream.next();
      args.push(parsers.expression());
    }
  }
  stream.expectSymbol(")", `expected "," or ")" in the arguments of ${name}()`);
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
      stream.text,
      `function ${name}() expects ${expected} argument(s), got ${args.length}`,
      nameToken.start,
    );
  }
  const [first] = args;
  if (definition.checkLiteral !== undefined && first !== undefined && first.kind !== "literal") {
    throw syntaxError(
      stream.text,
      `${name}() takes its ${name === "jpath" ? "JSONPath" : "XPath"} as a literal text written in the route; ` +
        "one computed from the message would be untrusted text run on the route's thread " +
        `(run it with the ${name === "jpath" ? "json_path" : "xpath"} tool step, which bounds it in a worker)`,
      first.start,
    );
  }
  if (definition.checkLiteral !== undefined && first?.kind === "literal" && typeof first.value === "string") {
    try {
      definition.checkLiteral(first.value);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw syntaxError(stream.text, `invalid argument of ${name}() (${reason})`, first.start);
    }
  }
  if (definition.documentLast && args.length === 1) {
    args.push({ kind: "root", name: "body", start: nameToken.start });
  }
  return { kind: "call", name, args, start: nameToken.start };
}
