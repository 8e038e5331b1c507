import type * as JsonPathPlus from "jsonpath-plus";
import { ExpressionError, RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import { lazyModule } from "../support/lazy-module.js";
import { scanJsonPath } from "./jsonpath-syntax.js";

/** Longest JSONPath accepted. */
export const MAX_JSONPATH_LENGTH = 4096;
/** Distinct paths remembered before the caches (ours and the library's global one) are dropped. */
const PATH_CACHE_LIMIT = 1000;
/**
 * Characters of the paths remembered before the caches are dropped: the library keeps each path's
 * parsed form too, several times the text, so 1000 paths of 4096 characters would hold tens of MB.
 */
const PATH_CACHE_CHARS = 256 * 1024;

/** A JSONPath that passed `checkJsonPath`. */
export interface CheckedJsonPath {
  readonly normalized: string;
  readonly multiMatch: boolean;
}

/** jsonpath-plus, loaded on the first evaluation. */
const jsonPathPlus = lazyModule<typeof JsonPathPlus>("jsonpath-plus", import.meta.url);
const checkedPaths = new Map<string, CheckedJsonPath>();
let checkedChars = 0;
const textDecoder = new TextDecoder();

type JsonDocument = null | boolean | number | string | object;

/**
 * Checks a JSONPath and returns its normalized form (a missing leading `$` is added) and whether
 * it is a multi-match path. Throws an `ExpressionError` naming the path and the column.
 */
export function checkJsonPath(path: string): CheckedJsonPath {
  const known = checkedPaths.get(path);
  if (known !== undefined) return known;
  if (typeof path !== "string" || path.trim() === "") {
    throw new ExpressionError(
      String(path),
      `JSONPath must be a non-empty text, found ${describeValue(path)}`,
    );
  }
  if (path.length > MAX_JSONPATH_LENGTH) {
    throw new ExpressionError(
      path.slice(0, 80),
      `JSONPath is ${path.length} characters long; the limit is ${MAX_JSONPATH_LENGTH}`,
    );
  }
  const scan = scanJsonPath(path);
  if (scan.problem !== undefined) {
    const column = scan.problem.position + 1;
    throw new ExpressionError(path, `JSONPath "${path}": ${scan.problem.detail} at column ${column}`, column);
  }
  const normalized = path.startsWith("$")
    ? path
    : path.startsWith("[") || path.startsWith(".")
      ? `$${path}`
      : `$.${path}`;
  if (checkedPaths.size >= PATH_CACHE_LIMIT || checkedChars + path.length > PATH_CACHE_CHARS) {
    checkedPaths.clear();
    checkedChars = 0;
    jsonPathPlus().JSONPath.cache = {};
  }
  checkedChars += path.length;
  const checked = { normalized, multiMatch: scan.multiMatch };
  checkedPaths.set(path, checked);
  return checked;
}

function toJsonDocument(document: unknown, path: string): JsonDocument | undefined {
  if (document instanceof Uint8Array) return parseJsonText(textDecoder.decode(document), path);
  if (typeof document === "string") return parseJsonText(document, path);
  if (document === undefined || document === null) return document;
  if (typeof document === "number" || typeof document === "boolean" || typeof document === "object")
    return document;
  throw new RoutekitError(
    "EXPRESSION_FAILED",
    `JSONPath "${path}": expected a JSON document, found ${describeValue(document)}`,
  );
}

function parseJsonText(text: string, path: string): JsonDocument {
  try {
    return JSON.parse(text) as JsonDocument;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `JSONPath "${path}": the document is not valid JSON (${reason})`,
      { cause: error },
    );
  }
}

/**
 * Evaluates a JSONPath over a document (an object, or JSON text, which is parsed first) with
 * jsonpath-plus's safe evaluator. A multi-match path (see `isMultiMatchPath`) returns an array,
 * empty when nothing matched; a definite path returns the value, or `undefined` when nothing matched.
 */
export function evaluateJsonPath(document: unknown, path: string): unknown {
  const checked = checkJsonPath(path);
  const json = toJsonDocument(document, path);
  if (json === undefined || json === null) {
    if (checked.normalized === "$") return json;
    return checked.multiMatch ? [] : undefined;
  }
  let results: unknown;
  try {
    results = jsonPathPlus().JSONPath({ path: checked.normalized, json, wrap: true, eval: "safe" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutekitError("EXPRESSION_FAILED", `JSONPath "${path}" failed: ${reason}`, { cause: error });
  }
  const matches: readonly unknown[] = Array.isArray(results) ? results : [];
  return checked.multiMatch ? matches : matches[0];
}
