import { defineBudgetTask, evaluateJsonPath } from "@routekit/core";
import { checkJsonPath, checkUntrustedJsonPath } from "@routekit/core/internal";
import { checkDocumentSize } from "../document-query/document-size.js";
import { runQueryJob } from "../document-query/run-query-job.js";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { describe, optionalString, parseToolInput } from "../tool-input.js";
import { type JsonPathOptions, resolveJsonPathOptions } from "./json-path-options.js";
import type { JsonPathJob } from "./json-path-task.js";
import { jsonSizeBound } from "./json-size-bound.js";

/** JSON Schema of the json_path tool input. */
export const JSON_PATH_INPUT_SCHEMA = {
  type: "object",
  properties: {
    json: {
      type: ["string", "object", "array"],
      description: "The JSON document to query, as JSON text (or the document itself).",
    },
    path: {
      type: "string",
      description:
        "JSONPath, e.g. $.items[0].name, $..price or $.items[?(@.price > 10)]. Default $. " +
        "Filters may compare and combine values; no regular expressions or method calls.",
    },
  },
  required: ["json"],
  additionalProperties: false,
} as const;

/**
 * JSON Schema of the json_path tool input when the path is fixed by the options: the arguments
 * object is the document to query.
 */
export const JSON_PATH_DOCUMENT_INPUT_SCHEMA = {
  type: "object",
  description: "The JSON document to query (the JSONPath is fixed by the tool).",
  additionalProperties: true,
} as const;

const TOOL = "json_path";
const textDecoder = new TextDecoder();
const JSON_PATH_TASK = defineBudgetTask<JsonPathJob, string>(
  new URL("./json-path-task.js", import.meta.url),
  "jsonPathJob",
);

/** A json_path query: the document (parsed) and the path. */
export interface JsonPathQuery {
  document: unknown;
  path: string;
}

/** The document as JSON text, refused past `maxBytes`: text as is, an object or array serialized. */
function documentText(value: unknown, maxBytes: number): string {
  const text = value instanceof Uint8Array ? textDecoder.decode(value) : value;
  if (typeof text === "string") {
    if (text.trim() === "")
      throw new ToolInputError(TOOL, `${TOOL}: key 'json' is empty (expected a JSON document)`, "json");
    checkDocumentSize(text, maxBytes, TOOL, "json");
    return text;
  }
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(text);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'json' cannot be read as JSON (${reason})`, "json");
  }
  if (serialized === undefined) {
    throw new ToolInputError(
      TOOL,
      `${TOOL}: key 'json' must be a JSON document (found ${describe(text)})`,
      "json",
    );
  }
  checkDocumentSize(serialized, maxBytes, TOOL, "json");
  return serialized;
}

function parseDocument(value: unknown, maxBytes: number): unknown {
  const text = value instanceof Uint8Array ? textDecoder.decode(value) : value;
  if (typeof text !== "string") {
    documentText(text, maxBytes);
    return text;
  }
  return parseDocumentText(documentText(text, maxBytes));
}

/** Parses a document's JSON text; invalid JSON is an input error naming the key `json`. */
export function parseDocumentText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'json' is not valid JSON (${reason})`, "json");
  }
}

/** The document and path of a body, the document not yet parsed. */
function readRawQuery(body: unknown, options?: JsonPathOptions): { json: unknown; path: string } {
  const resolved = resolveJsonPathOptions(options);
  if (resolved.path !== undefined) {
    if (body === undefined || body === null) {
      throw new ToolInputError(TOOL, `${TOOL}: input is empty (expected a JSON document)`, "json");
    }
    return { json: body, path: resolved.path };
  }
  const input = parseToolInput(body, TOOL);
  const path = optionalString(input, "path", TOOL) ?? "$";
  const json = input.json;
  if (json === undefined || json === null) {
    throw new ToolInputError(TOOL, `${TOOL}: required key 'json' is missing`, "json");
  }
  if (typeof json !== "string" && typeof json !== "object") {
    throw new ToolInputError(
      TOOL,
      `${TOOL}: key 'json' must be JSON text, an object or an array (found ${describe(json)})`,
      "json",
    );
  }
  return { json, path };
}

/**
 * Reads a json_path query from a message body. Without a fixed `options.path` the body is the
 * tool input `{json, path}` (an object or JSON text; `path` defaults to `$`); with one, the body
 * is the document itself. `maxDocumentBytes` applies to a document given as an object too.
 */
export function readJsonPathQuery(body: unknown, options?: JsonPathOptions): JsonPathQuery {
  const { json, path } = readRawQuery(body, options);
  return { document: parseDocument(json, resolveJsonPathOptions(options).maxDocumentBytes), path };
}

/** Checks a path's syntax; a bad one is an input error naming the key `path`. */
function checkPath(path: string, untrusted: boolean): boolean {
  try {
    const multiMatch = checkJsonPath(path).multiMatch;
    if (untrusted) checkUntrustedJsonPath(path);
    return multiMatch;
  } catch (error) {
    const reason = reasonOf(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'path' is invalid: ${reason}`, "path");
  }
}

/** Evaluates a checked path over a parsed document: compact JSON text, `null` when nothing matches. */
export function queryDocument(document: unknown, path: string, multiMatch: boolean): string {
  let result: unknown;
  try {
    result = evaluateJsonPath(document, path);
  } catch (error) {
    const reason = reasonOf(error);
    throw new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: key 'path' failed: ${reason}`, { cause: error });
  }
  if (result === undefined || (multiMatch && Array.isArray(result) && result.length === 0)) return "null";
  return JSON.stringify(result) ?? "null";
}

/**
 * Runs json_path on a message body (see `readJsonPathQuery`) on the calling thread: the match as
 * compact JSON text, an array for multi-match paths (`..`, `*`, filters, slices, unions), `null`
 * when nothing matches. For paths the route author wrote (a fixed `options.path`); a path from a
 * model or a message goes through `runJsonPathBounded`, as the `.jsonPath()` step does.
 */
export function runJsonPath(body: unknown, options?: JsonPathOptions): string {
  const { document, path } = readJsonPathQuery(body, options);
  return queryDocument(document, path, checkPath(path, false));
}

/**
 * Runs json_path on a message body under the tool's budget: the path must be in the untrusted
 * dialect (see `checkUntrustedJsonPath`) and the query runs in a worker thread bounded by
 * `timeoutMs` (from submission), the budget's memory limit and `maxOutputBytes`.
 */
export function runJsonPathBounded(
  body: unknown,
  options?: JsonPathOptions,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const resolved = resolveJsonPathOptions(options);
    const { json, path } = readRawQuery(body, options);
    checkPath(path, true);
    return runInBudget(documentText(json, resolved.maxDocumentBytes), path, false, options, signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * What the step runs with a fixed path (the route author's): on the calling thread for a document
 * whose JSON text has up to `inlineDocumentChars` characters, in a worker of the budget for a
 * larger one (the path is trusted, the document is not: `$..*` over a large hostile document
 * renders every subtree).
 */
export function runFixedJsonPath(
  body: unknown,
  options: JsonPathOptions,
  signal?: AbortSignal,
): string | Promise<string> {
  const resolved = resolveJsonPathOptions(options);
  const { json, path } = readRawQuery(body, options);
  const multiMatch = checkPath(path, false);
  // A small parsed document is queried as it is, without writing its JSON text to measure it.
  // One the walk finds is not plain JSON data (a toJSON, a Map, a function inside) is queried as
  // its JSON text reads, as in the budget; one the walk left at the limit is queried as it is.
  const small = Math.min(resolved.maxDocumentBytes, resolved.inlineDocumentChars);
  let plainObject = false;
  if (typeof json === "object" && !(json instanceof Uint8Array)) {
    const bound = jsonSizeBound(json, small);
    if (bound !== undefined && bound >= 0) return queryDocument(json, path, multiMatch);
    plainObject = bound === undefined;
  }
  const text = documentText(json, resolved.maxDocumentBytes);
  if (text.length > resolved.inlineDocumentChars) return runInBudget(text, path, true, options, signal);
  return queryDocument(plainObject ? json : parseDocumentText(text), path, multiMatch);
}

function runInBudget(
  documentText: string,
  path: string,
  trusted: boolean,
  options: JsonPathOptions | undefined,
  signal: AbortSignal | undefined,
): Promise<string> {
  const input = { documentText, path, trusted };
  return runQueryJob(TOOL, JSON_PATH_TASK, input, resolveJsonPathOptions(options), signal);
}
