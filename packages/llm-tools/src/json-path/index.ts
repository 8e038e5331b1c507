export {
  JSON_PATH_DEFAULTS,
  type JsonPathOptions,
  type ResolvedJsonPathOptions,
  resolveJsonPathOptions,
} from "./json-path-options.js";
export {
  JSON_PATH_DOCUMENT_INPUT_SCHEMA,
  JSON_PATH_INPUT_SCHEMA,
  type JsonPathQuery,
  readJsonPathQuery,
  runFixedJsonPath,
  runJsonPath,
  runJsonPathBounded,
} from "./run-json-path.js";
