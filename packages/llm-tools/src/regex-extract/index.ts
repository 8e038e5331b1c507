export { extractFromBody, regexExtract, runRegexExtract } from "./regex-extract.js";
export type { RegexExtractInput } from "./regex-extract-input.js";
export {
  REGEX_EXTRACT_DEFAULTS,
  type RegexExtractOptions,
  type ResolvedRegexExtractOptions,
  resolveRegexExtractOptions,
} from "./regex-extract-options.js";
export { REGEX_EXTRACT_INPUT_SCHEMA } from "./regex-extract-schema.js";
export { shutdownRegexWorkers } from "./shutdown-regex-workers.js";
