import "@routekit/llm/tool";
import { RouteBuilder } from "@routekit/core";
import {
  REGEX_EXTRACT_INPUT_SCHEMA,
  type RegexExtractOptions,
  resolveRegexExtractOptions,
} from "../regex-extract/index.js";
import "../steps/regex-extract-step.js";
import { omitInputKeys } from "./omit-input-keys.js";
import { splitWrapperOptions, type ToolWrapperOptions } from "./tool-wrapper-options.js";

/** Options of RegexExtractTool: the regex_extract step's options plus the wrapper's. */
export interface RegexExtractToolOptions extends RegexExtractOptions, ToolWrapperOptions {}

const DESCRIPTION =
  "Extract text with a regular expression: the first match, a capture group (number or name), or every match.";

/**
 * regex_extract as a self-contained route:
 * `from(endpointUri).asLlmTool("regex_extract", ...).regexExtract(options)`.
 * Input keys fixed by the options (`pattern`, `group`, `all`) leave the tool's schema.
 */
export class RegexExtractTool extends RouteBuilder {
  readonly #options: { wrapper: ToolWrapperOptions; step: RegexExtractOptions };

  /** Checks the options now, so a bad one fails here rather than on the first call. */
  constructor(options: RegexExtractToolOptions = {}) {
    super();
    this.#options = splitWrapperOptions(options);
    resolveRegexExtractOptions(this.#options.step);
  }

  override configure(): void {
    const { wrapper, step } = this.#options;
    const fixed = (["pattern", "group", "all"] as const).filter((key) => step[key] !== undefined);
    this.from(wrapper.endpointUri ?? "direct:llm.regex_extract")
      .asLlmTool("regex_extract", {
        description: wrapper.description ?? DESCRIPTION,
        input: omitInputKeys(REGEX_EXTRACT_INPUT_SCHEMA, fixed),
        // The step checks its input for every caller, naming the tool and the key.
        validate: "model-only",
      })
      .regexExtract(step);
  }
}
