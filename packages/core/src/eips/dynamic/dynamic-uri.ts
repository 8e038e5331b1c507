import { RoutekitError } from "../../errors/errors.js";
import { evaluationError } from "../../expressions/expression-errors.js";
import { compileNode } from "../../expressions/simple-compiler.js";
import { parseTemplate } from "../../expressions/simple-parser.js";
import { toText } from "../../expressions/simple-values.js";
import type { Exchange } from "../../model/exchange.js";
import type { ExpressionInput } from "../../model/route-definition.js";

/** Builds the endpoint URI of one exchange. */
export type DynamicUri = (exchange: Exchange) => string;

type Piece = string | ((exchange: Exchange) => unknown);

/**
 * Compiles a toD URI. In a text template every `${...}` value is percent-encoded as one URI
 * component (`encodeURIComponent`): before the template's `?` it fills exactly one path segment
 * (no `/`, `?`, `#`, `&` or `=` of its own, and never a `.` or `..` segment), after it one query
 * value (no extra `&name=` option). So a value can never add an endpoint option, change the
 * path's structure or climb it. With `raw`, values are inserted as they are (the template's
 * author vouches for them). A function's result is used as it is: the function builds the URI.
 */
export function compileDynamicUri(uri: ExpressionInput<string>, raw: boolean, where: string): DynamicUri {
  if (typeof uri === "function") {
    return (exchange) => {
      const value: unknown = uri(exchange);
      if (typeof value !== "string" || value === "") {
        throw new RoutekitError(
          "URI_INVALID",
          `${where}: the toD function must return an endpoint URI string (found ${value === "" ? "an empty string" : typeof value})`,
        );
      }
      return value;
    };
  }
  const template = uri;
  const pieces: Piece[] = parseTemplate(template).map((part) =>
    typeof part === "string" ? part : compileNode(part),
  );
  if (raw) return (exchange) => join(pieces, exchange, template, asItIs);
  const queryStart = firstQueryPiece(pieces);
  const allowedDotSegments = countDotSegments(
    pieces.map((piece) => (typeof piece === "string" ? piece : "x")).join(""),
  );
  const encode = (value: string, index: number): string => {
    try {
      return encodeURIComponent(value);
    } catch {
      throw new RoutekitError(
        "URI_INVALID",
        `${where}: an interpolated ${index >= queryStart ? "option" : "path"} value is not well-formed Unicode text`,
      );
    }
  };
  return (exchange) => {
    const built = join(pieces, exchange, template, encode);
    if (countDotSegments(built) > allowedDotSegments) {
      throw new RoutekitError(
        "URI_INVALID",
        `${where}: an interpolated value makes a '.' or '..' path segment; values ` +
          "fill one path segment each and may not climb the path (toD(uri, { raw: true }) inserts raw text)",
      );
    }
    return built;
  };
}

/** Index (among the `${...}` values) of the first value after a literal `?`. */
function firstQueryPiece(pieces: readonly Piece[]): number {
  let values = 0;
  for (const piece of pieces) {
    if (typeof piece === "string") {
      if (piece.includes("?")) return values;
    } else values += 1;
  }
  return Number.POSITIVE_INFINITY;
}

const asItIs = (value: string): string => value;

/** The URI of one exchange; `encode` gets each `${...}` value with its index among them. */
function join(
  pieces: readonly Piece[],
  exchange: Exchange,
  template: string,
  encode: (value: string, index: number) => string,
): string {
  let result = "";
  let index = 0;
  for (const piece of pieces) {
    if (typeof piece === "string") {
      result += piece;
      continue;
    }
    let value: unknown;
    try {
      value = piece(exchange);
    } catch (error) {
      throw evaluationError(template, error);
    }
    result += encode(toText(value), index++);
  }
  return result;
}

/**
 * `.` and `..` segments (also percent-encoded, which URL parsers treat the same) before the query
 * or fragment. Scans the text in place: it runs for every message a toD sends.
 */
function countDotSegments(uri: string): number {
  let end = uri.length;
  for (let index = 0; index < end; index++) {
    const code = uri.charCodeAt(index);
    if (code === QUESTION_MARK || code === NUMBER_SIGN) end = index;
  }
  let count = 0;
  let start = 0;
  for (let index = 0; index <= end; index++) {
    if (index < end && uri.charCodeAt(index) !== SLASH) continue;
    if (isDotSegment(uri, start, index)) count++;
    start = index + 1;
  }
  return count;
}

const SLASH = 0x2f;
const QUESTION_MARK = 0x3f;
const NUMBER_SIGN = 0x23;
const DOT = 0x2e;
const PERCENT = 0x25;

/** Whether `uri` from `start` to `end` is one or two dots, each `.` or `%2e` (any case). */
function isDotSegment(uri: string, start: number, end: number): boolean {
  let position = start;
  let dots = 0;
  while (position < end) {
    if (dots === 2) return false;
    if (uri.charCodeAt(position) === DOT) position += 1;
    else if (
      position + 3 <= end &&
      uri.charCodeAt(position) === PERCENT &&
      uri.charCodeAt(position + 1) === 0x32 &&
      (uri.charCodeAt(position + 2) | 0x20) === 0x65
    ) {
      position += 3;
    } else return false;
    dots++;
  }
  return dots > 0;
}
