import { checkJsonPath, evaluateJsonPath } from "@routekit/core";
import { LlmToolsError, ToolInputError } from "../errors.js";
import { describe, optionalString, parseToolInput } from "../tool-input.js";
import { checkDocumentSize } from "./document-size.js";
import { type JsonPathOptions, resolveJsonPathOptions } from "./json-path-options.js";

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
      description: "JSONPath, e.g. $.items[0].name, $..price or $.items[?(@.price > 10)]. Default $.",
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

/** A json_path query: the document (parsed) and the path. */
export interface JsonPathQuery {
  document: unknown;
  path: string;
}

function parseDocument(value: unknown, maxBytes: number): unknown {
  const text = value instanceof Uint8Array ? textDecoder.decode(value) : value;
  if (typeof text !== "string") return text;
  if (text.trim() === "")
    throw new ToolInputError(TOOL, `${TOOL}: key 'json' is empty (expected a JSON document)`, "json");
  checkDocumentSize(text, maxBytes, TOOL, "json");
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'json' is not valid JSON (${reason})`, "json");
  }
}

/**
 * Reads a json_path query from a message body. Without a fixed `options.path` the body is the
 * tool input `{json, path}` (an object or JSON text; `path` defaults to `$`); with one, the body
 * is the document itself.
 */
export function readJsonPathQuery(body: unknown, options?: JsonPathOptions): JsonPathQuery {
  const resolved = resolveJsonPathOptions(options);
  if (resolved.path !== undefined) {
    if (body === undefined || body === null) {
      throw new ToolInputError(TOOL, `${TOOL}: input is empty (expected a JSON document)`, "json");
    }
    return { document: parseDocument(body, resolved.maxDocumentBytes), path: resolved.path };
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
  return { document: parseDocument(json, resolved.maxDocumentBytes), path };
}

/**
 * Runs json_path on a message body (see `readJsonPathQuery`): the match as compact JSON text, an
 * array for multi-match paths (`..`, `*`, filters, slices, unions), `null` when nothing matches.
 * Filters run in jsonpath-plus's safe evaluator, never as native code.
 */
export function runJsonPath(body: unknown, options?: JsonPathOptions): string {
  const { document, path } = readJsonPathQuery(body, options);
  let multiMatch: boolean;
  try {
    multiMatch = checkJsonPath(path).multiMatch;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolInputError(TOOL, `${TOOL}: key 'path' is invalid: ${reason}`, "path");
  }
  let result: unknown;
  try {
    result = evaluateJsonPath(document, path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: key 'path' failed: ${reason}`, { cause: error });
  }
  if (result === undefined || (multiMatch && Array.isArray(result) && result.length === 0)) return "null";
  return JSON.stringify(result) ?? "null";
}
