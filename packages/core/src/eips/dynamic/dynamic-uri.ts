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

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

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
  if (raw) return (exchange) => join(pieces, exchange, template, (value) => value);
  const queryStart = firstQueryPiece(pieces);
  const allowedDotSegments = countDotSegments(
    pieces.map((piece) => (typeof piece === "string" ? piece : "x")).join(""),
  );
  return (exchange) => {
    let index = 0;
    const built = join(pieces, exchange, template, (value) => {
      const inQuery = index++ >= queryStart;
      try {
        return encodeURIComponent(value);
      } catch {
        throw new RoutekitError(
          "URI_INVALID",
          `${where}: an interpolated ${inQuery ? "option" : "path"} value is not well-formed Unicode text`,
        );
      }
    });
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

function join(
  pieces: readonly Piece[],
  exchange: Exchange,
  template: string,
  encode: (value: string) => string,
): string {
  let result = "";
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
    result += encode(toText(value));
  }
  return result;
}

/** `.` and `..` segments (also percent-encoded, which URL parsers treat the same) before the query. */
function countDotSegments(uri: string): number {
  const end = uri.search(/[?#]/);
  const path = end === -1 ? uri : uri.slice(0, end);
  return path.split("/").filter((segment) => DOT_SEGMENT.test(segment)).length;
}
