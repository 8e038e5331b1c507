import { checkJsonPath } from "@routekit/core";
import { LlmToolsError } from "../errors.js";
import { checkKnownOptions, integerOption, optionError } from "../http-fetch/option-checks.js";

/** Options of json_path. */
export interface JsonPathOptions {
  /**
   * A fixed JSONPath. When set, the body is the document itself (an object, an array or JSON
   * text) and no `{json, path}` input is read: the enrichment form `jsonPath({ path })`.
   */
  path?: string;
  /** Largest JSON text accepted, in UTF-8 bytes. Default 1 MiB. */
  maxDocumentBytes?: number;
}

/** JsonPathOptions checked, with defaults applied. */
export interface ResolvedJsonPathOptions {
  readonly path: string | undefined;
  readonly maxDocumentBytes: number;
}

/** Default limits of json_path. */
export const JSON_PATH_DEFAULTS = { maxDocumentBytes: 1024 * 1024 } as const;

const TOOL = "json_path";
const KNOWN = ["path", "maxDocumentBytes"] as const;
const resolved = new WeakMap<JsonPathOptions, ResolvedJsonPathOptions>();
const NO_OPTIONS: JsonPathOptions = {};

/**
 * Checks json_path options once per options object; a fixed `path` is checked for syntax here,
 * so a bad one fails when the route is added.
 */
export function resolveJsonPathOptions(options: JsonPathOptions = NO_OPTIONS): ResolvedJsonPathOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(TOOL, "options", "an object", options);
  }
  const cached = resolved.get(options);
  if (cached !== undefined) return cached;
  checkKnownOptions(options, KNOWN, TOOL);
  const { path } = options;
  if (path !== undefined) {
    if (typeof path !== "string" || path.trim() === "") {
      throw optionError(TOOL, "path", "a non-empty JSONPath text", path);
    }
    try {
      checkJsonPath(path);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LlmToolsError("TOOL_OPTION_INVALID", TOOL, `${TOOL}: option 'path' is invalid: ${reason}`, {
        cause: error,
      });
    }
  }
  const result: ResolvedJsonPathOptions = {
    path,
    maxDocumentBytes: integerOption(
      options.maxDocumentBytes,
      "maxDocumentBytes",
      1,
      JSON_PATH_DEFAULTS.maxDocumentBytes,
      TOOL,
    ),
  };
  resolved.set(options, result);
  return result;
}
