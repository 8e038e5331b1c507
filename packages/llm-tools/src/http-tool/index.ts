export { type ExpandedHeaders, expandHeaders } from "./expand-headers.js";
export { type HttpTool, type HttpToolDescription, httpTool } from "./http-tool.js";
export type { HttpToolBodyMode, HttpToolOptions, HttpToolResultMode } from "./http-tool-options.js";
export { reencodeJson } from "./result-format.js";
