import {
  REGEX_EXTRACT_INPUT_SCHEMA,
  type RegexExtractOptions,
  resolveRegexExtractOptions,
} from "../regex-extract/index.js";
import "../steps/regex-extract-step.js";
import { omitInputKeys } from "./omit-input-keys.js";
import { type ToolWrapperSpec, toolWrapper } from "./tool-wrapper.js";
import type { ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of RegexExtractTool: the regex_extract step's options plus the wrapper's. */
export interface RegexExtractToolOptions extends RegexExtractOptions, ToolWrapperOptions {}

const FIXABLE_KEYS = ["pattern", "group", "all"] as const;

const SPEC: ToolWrapperSpec<RegexExtractOptions> = {
  toolName: "regex_extract",
  description:
    "Extract text with a regular expression: the first match, a capture group (number or name), or every match.",
  check: (options) => resolveRegexExtractOptions(options),
  input: (options) =>
    omitInputKeys(
      REGEX_EXTRACT_INPUT_SCHEMA,
      FIXABLE_KEYS.filter((key) => options[key] !== undefined),
    ),
  addStep: (route, options) => route.regexExtract(options),
};

/**
 * regex_extract as a self-contained route:
 * `from(endpointUri).asLlmTool("regex_extract", ...).regexExtract(options)`.
 * Input keys fixed by the options (`pattern`, `group`, `all`) leave the tool's schema.
 */
export class RegexExtractTool extends toolWrapper(SPEC) {}
