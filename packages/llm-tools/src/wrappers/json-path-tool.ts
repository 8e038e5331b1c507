import { type JsonPathOptions, resolveJsonPathOptions } from "../json-path/json-path-options.js";
import { JSON_PATH_DOCUMENT_INPUT_SCHEMA, JSON_PATH_INPUT_SCHEMA } from "../json-path/run-json-path.js";
import "../steps/json-path-step.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of JsonPathTool: the json_path step's options plus the wrapper's. */
export interface JsonPathToolOptions extends JsonPathOptions, ToolWrapperOptions {}

const SPEC: ToolWrapperSpec<JsonPathOptions> = {
  toolName: "json_path",
  description:
    "Query a JSON document with JSONPath; returns the match as JSON, an array for multi-match paths, or null.",
  check: (options) => resolveJsonPathOptions(options),
  input: (options) => (options.path === undefined ? JSON_PATH_INPUT_SCHEMA : JSON_PATH_DOCUMENT_INPUT_SCHEMA),
  addStep: (route, options) => route.jsonPath(options),
};

/**
 * json_path as a self-contained route: `from(endpointUri).asLlmTool("json_path", ...).jsonPath(options)`.
 * With a fixed `path` the tool's input is the document itself.
 */
export class JsonPathTool extends toolWrapper(SPEC) {}
