import type * as Crypto from "node:crypto";
import { RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import { lazyModule } from "../support/lazy-module.js";
import { checkInlineDocument, INLINE_DOCUMENT_DEFAULTS } from "./inline-document.js";
import { checkJsonPath, evaluateJsonPath } from "./jsonpath.js";
import { toXmlInput } from "./parse-xml.js";
import { asNumber, textMatches, toText } from "./simple-values.js";
import { checkXPathSyntax, evaluateXPath } from "./xpath.js";

/** node:crypto, loaded by the first `uuid()`. */
const crypto = lazyModule<typeof Crypto>("node:crypto", import.meta.url);

type FixedFunction = (first: unknown, second: unknown, third: unknown) => unknown;
type VariadicFunction = (values: readonly unknown[]) => unknown;

/** A built-in function of the simple language. Fixed functions take up to three arguments. */
export type SimpleFunction = {
  readonly minArguments: number;
  readonly maxArguments: number;
  /** The document is the last argument and defaults to the body: `jpath('$.a')`, `header.doc.jpath('$.a')`. */
  readonly documentLast?: boolean;
  /** Checks a literal first argument when the expression is compiled (a JSONPath, an XPath). */
  readonly checkLiteral?: (value: string) => void;
} & (
  | { readonly variadic: false; readonly evaluate: FixedFunction }
  | { readonly variadic: true; readonly evaluate: VariadicFunction }
);

function failure(name: string, detail: string): RoutekitError {
  return new RoutekitError("EXPRESSION_FAILED", `${name}() ${detail}`);
}

function requireNumber(name: string, value: unknown): number {
  const number = asNumber(value);
  if (number === undefined) throw failure(name, `expects a number, found ${describeValue(value)}`);
  return number;
}

function requireInteger(name: string, value: unknown): number {
  const number = requireNumber(name, value);
  if (!Number.isInteger(number)) throw failure(name, `expects a whole number, found ${describeValue(value)}`);
  return number;
}

function lengthOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === "object") return Object.keys(value).length;
  return toText(value).length;
}

function toNumberStrictly(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  const number = asNumber(value);
  if (number === undefined) throw failure("number", `cannot convert ${describeValue(value)} to a number`);
  return number;
}

function extreme(name: string, values: readonly unknown[], pick: (a: number, b: number) => number): unknown {
  let result: number | undefined;
  for (const value of values) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const number = requireNumber(name, item);
      result = result === undefined ? number : pick(result, number);
    }
  }
  return result;
}

function fixed(minArguments: number, maxArguments: number, evaluate: FixedFunction): SimpleFunction {
  return { minArguments, maxArguments, variadic: false, evaluate };
}

function unary(transform: (value: unknown) => unknown): SimpleFunction {
  return fixed(1, 1, (value) => transform(value));
}

const FUNCTIONS: Readonly<Record<string, SimpleFunction>> = {
  upper: unary((value) => toText(value).toUpperCase()),
  lower: unary((value) => toText(value).toLowerCase()),
  trim: unary((value) => toText(value).trim()),
  length: unary(lengthOf),
  size: unary(lengthOf),
  substring: fixed(2, 3, (value, start, end) =>
    toText(value).substring(
      requireInteger("substring", start),
      end === undefined ? undefined : requireInteger("substring", end),
    ),
  ),
  replace: fixed(3, 3, (value, search, replacement) => {
    const searchText = toText(search);
    if (searchText === "") throw failure("replace", "needs a non-empty text to search for");
    return toText(value).replaceAll(searchText, toText(replacement));
  }),
  split: fixed(2, 2, (value, separator) =>
    value === null || value === undefined ? [] : toText(value).split(toText(separator)),
  ),
  join: fixed(1, 2, (list, separator) => {
    if (list === null || list === undefined) return "";
    if (!Array.isArray(list)) throw failure("join", `expects an array, found ${describeValue(list)}`);
    return list.map(toText).join(separator === undefined ? "," : toText(separator));
  }),
  contains: fixed(2, 2, (value, part) => textMatches("contains", value, part)),
  startsWith: fixed(2, 2, (value, part) => textMatches("startsWith", value, part)),
  endsWith: fixed(2, 2, (value, part) => textMatches("endsWith", value, part)),
  abs: unary((value) => Math.abs(requireNumber("abs", value))),
  round: unary((value) => Math.round(requireNumber("round", value))),
  floor: unary((value) => Math.floor(requireNumber("floor", value))),
  ceil: unary((value) => Math.ceil(requireNumber("ceil", value))),
  min: {
    minArguments: 1,
    maxArguments: Number.POSITIVE_INFINITY,
    variadic: true,
    evaluate: (values) => extreme("min", values, Math.min),
  },
  max: {
    minArguments: 1,
    maxArguments: Number.POSITIVE_INFINITY,
    variadic: true,
    evaluate: (values) => extreme("max", values, Math.max),
  },
  number: unary(toNumberStrictly),
  string: unary(toText),
  uuid: fixed(0, 0, () => crypto().randomUUID()),
  now: fixed(0, 0, () => new Date()),
  jpath: {
    ...fixed(1, 2, (path, document) => {
      if (typeof path !== "string")
        throw failure("jpath", `expects a path text, found ${describeValue(path)}`);
      checkInlineDocument(
        document,
        "json",
        { label: `JSONPath "${path}"`, helper: "jsonpath" },
        INLINE_DOCUMENT_DEFAULTS,
      );
      return evaluateJsonPath(document, path);
    }),
    documentLast: true,
    checkLiteral: (path) => {
      checkJsonPath(path);
    },
  },
  xpath: {
    ...fixed(1, 2, (expression, document) => {
      if (typeof expression !== "string") {
        throw failure("xpath", `expects an XPath text, found ${describeValue(expression)}`);
      }
      if (document === null || document === undefined) return null;
      const xml = toXmlInput(document, "xpath()");
      checkInlineDocument(
        xml,
        "xml",
        { label: `XPath "${expression}"`, helper: "xpath" },
        INLINE_DOCUMENT_DEFAULTS,
      );
      return evaluateXPath(xml, expression);
    }),
    documentLast: true,
    checkLiteral: checkXPathSyntax,
  },
};

/** Names of every built-in function, for error messages and docs. */
export const SIMPLE_FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS);

/** The built-in function called `name`, if there is one. */
export function findSimpleFunction(name: string): SimpleFunction | undefined {
  return Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
}
